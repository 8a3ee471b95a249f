import { NOTICE_LIST, queryString } from '../http/query.js';
import type { Transport } from '../http/transport.js';
import type { NoticeFilterParams } from '../types/params.js';
import type { List, Notice } from '../types/resources.js';
import { noticeFilterQuery } from '../resources/notice-filter.js';
import { type ReconnectOptions, SseReconnection } from './sse-reconnection.js';

/**
 * Yielded when the notices after the stream's position were dropped (an account keeps its newest
 * NOTICES_KEPT) before it read them: the notices strictly between `after` and `first_notice_id`
 * are lost. The stream goes on with `first_notice_id`, the oldest kept notice.
 */
export interface NoticeGap {
  object: 'notice_gap';
  /** The last notice yielded (or the `after` given) before the gap. */
  after: string;
  /** The oldest kept notice: the next notice yielded. */
  first_notice_id: string;
  /** The newest kept notice when the gap was found. */
  last_notice_id: string | null;
}

export type NoticeStreamItem = Notice | NoticeGap;

export interface NoticeStreamOptions extends NoticeFilterParams, ReconnectOptions {
  /**
   * Where to start: a notice id yields the notices after it; omitted yields only notices newer
   * than the newest one (of the filters) at the start.
   */
  after?: string;
}

/**
 * `GET /notices/stream` (Server-Sent Events): each new notice of the account (that the key may
 * see, within the filters) once and in order, reconnected with `Last-Event-ID` (the last notice
 * id) after a network failure, a silent connection, a server that ends the stream or an
 * `api_error`, waiting the server's `retry` and doubling it while reconnecting fails. A dropped
 * position yields one NoticeGap; any other `event: error` throws its typed error (e.g.
 * AuthenticationError once the key is revoked).
 */
export async function* streamNotices(
  transport: Transport,
  options: NoticeStreamOptions,
): AsyncGenerator<NoticeStreamItem, void, undefined> {
  const { signal } = options;
  const filters = noticeFilterQuery(options);
  const path = `/api/v1/notices/stream${queryString(filters, NOTICE_LIST)}`;
  const link = new SseReconnection(transport, options);
  try {
    // "from now" is pinned to the newest notice at the start, so that a reconnection misses none
    let position =
      options.after ??
      (
        await transport.get<List<Notice>>(
          `/api/v1/notices${queryString({ ...filters, limit: 1 }, NOTICE_LIST)}`,
          { signal },
        )
      ).body!.data[0]?.id;
    /** The position a gap was yielded for: a reconnection before the next notice repeats it. */
    let gapAfter: string | undefined;
    for await (const message of link.messages(path, () => position)) {
      if (message.event === 'message') {
        const notice = JSON.parse(message.data) as Notice;
        yield notice;
        position = notice.id;
        gapAfter = undefined;
      } else if (message.event === 'gap' && position !== undefined && gapAfter !== position) {
        const gap = JSON.parse(message.data) as Omit<NoticeGap, 'object' | 'after'>;
        gapAfter = position;
        yield {
          object: 'notice_gap',
          after: position,
          first_notice_id: gap.first_notice_id,
          last_notice_id: gap.last_notice_id ?? null,
        };
      }
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
}
