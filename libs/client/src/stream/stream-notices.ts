import { NOTICE_LIST, queryString } from '../http/query.js';
import type { Transport } from '../http/transport.js';
import type { NoticeFilterParams } from '../types/params.js';
import type { List, Notice } from '../types/resources.js';
import { noticeFilterQuery } from '../resources/notice-filter.js';
import { type ReconnectOptions, SseReconnection } from './sse-reconnection.js';

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
 * `api_error`, waiting the server's `retry` and doubling it while reconnecting fails. Any other
 * `event: error` throws its typed error (e.g. AuthenticationError once the key is revoked).
 */
export async function* streamNotices(
  transport: Transport,
  options: NoticeStreamOptions,
): AsyncGenerator<Notice, void, undefined> {
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
    for await (const message of link.messages(path, () => position)) {
      if (message.event === 'message') {
        const notice = JSON.parse(message.data) as Notice;
        yield notice;
        position = notice.id;
      }
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
}
