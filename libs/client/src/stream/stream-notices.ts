import { isTransient } from '../errors.js';
import { NOTICE_LIST, queryString } from '../http/query.js';
import { sleep } from '../http/sleep.js';
import type { Transport } from '../http/transport.js';
import type { NoticeFilterParams } from '../types/params.js';
import type { List, Notice } from '../types/resources.js';
import { noticeFilterQuery } from '../resources/notice-filter.js';
import { SseParser } from './sse-parser.js';
import { readSse } from './sse-reader.js';
import { streamError } from './stream-error.js';

export interface NoticeStreamOptions extends NoticeFilterParams {
  /**
   * Where to start: a notice id yields the notices after it; omitted yields only notices newer
   * than the newest one (of the filters) at the start.
   */
  after?: string;
  /** Ends the stream: the iteration then ends without an error. */
  signal?: AbortSignal;
  /** Longest wait before reconnecting (it doubles from the server's `retry`, 1 s). Default 10,000 ms. */
  maxRetryMs?: number;
  /** Nothing received for this long (the server sends a heartbeat every 15 s): reconnect. Default 45,000 ms. */
  idleTimeoutMs?: number;
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
  const maxRetry = options.maxRetryMs ?? 10_000;
  const idleTimeout = options.idleTimeoutMs ?? 45_000;
  const filters = noticeFilterQuery(options);
  const path = `/api/v1/notices/stream${queryString(filters, NOTICE_LIST)}`;
  const parser = new SseParser();
  let failures = 0;
  const rest = async () => {
    const step = Math.min(maxRetry, (parser.retryMs ?? 1_000) * 2 ** failures);
    failures++;
    await sleep(step / 2 + (Math.random() * step) / 2, signal);
  };
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
    for (;;) {
      try {
        const open = await transport.openStream(path, { signal, lastEventId: position });
        failures = 0;
        for await (const message of readSse(open, parser, idleTimeout, signal)) {
          if (message.event === 'message') {
            const notice = JSON.parse(message.data) as Notice;
            yield notice;
            position = notice.id;
          } else if (message.event === 'error') throw streamError(message.data);
        }
      } catch (err) {
        if (!isTransient(err) || signal?.aborted) throw err;
      }
      await rest();
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw err;
  }
}
