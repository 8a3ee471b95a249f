import { isTransient } from '../errors.js';
import { sleep } from '../http/sleep.js';
import type { Transport } from '../http/transport.js';
import { type SseMessage, SseParser } from './sse-parser.js';
import { readSse } from './sse-reader.js';
import { streamError } from './stream-error.js';

/** How a stream reconnects, as the streaming methods take it. */
export interface ReconnectOptions {
  /** Ends the stream: the iteration then ends without an error. */
  signal?: AbortSignal;
  /** Longest wait before reconnecting (it doubles from the server's `retry`, 1 s). Default 10,000 ms. */
  maxRetryMs?: number;
  /** Nothing received for this long (the server sends a heartbeat every 15 s): reconnect. Default 45,000 ms. */
  idleTimeoutMs?: number;
}

/**
 * One Server-Sent Events stream kept open: reconnected with `Last-Event-ID` after a network
 * failure, a silent connection, a server that ends the stream or an `api_error`, waiting the
 * server's `retry` (with jitter) and doubling it while reconnecting fails.
 */
export class SseReconnection {
  private readonly parser = new SseParser();
  private readonly maxRetry: number;
  private readonly idleTimeout: number;
  private failures = 0;

  constructor(
    private readonly transport: Transport,
    private readonly options: ReconnectOptions,
  ) {
    this.maxRetry = options.maxRetryMs ?? 10_000;
    this.idleTimeout = options.idleTimeoutMs ?? 45_000;
  }

  /** Waits before the next try; each wait in a row without a connection doubles. */
  async rest(): Promise<void> {
    const step = Math.min(this.maxRetry, (this.parser.retryMs ?? 1_000) * 2 ** this.failures);
    this.failures++;
    await sleep(step / 2 + (Math.random() * step) / 2, this.options.signal);
  }

  /**
   * The stream's messages other than `error`, which throws its typed error; each reconnection
   * resumes after `lastEventId()` (none: from now), asked when it connects.
   */
  async *messages(
    path: string,
    lastEventId: () => string | null | undefined,
  ): AsyncGenerator<SseMessage, never, undefined> {
    const { signal } = this.options;
    for (;;) {
      try {
        const open = await this.transport.openStream(path, {
          signal,
          lastEventId: lastEventId() ?? undefined,
        });
        this.failures = 0;
        for await (const message of readSse(open, this.parser, this.idleTimeout, signal)) {
          if (message.event === 'error') throw streamError(message.data);
          yield message;
        }
      } catch (err) {
        if (!isTransient(err) || signal?.aborted) throw err;
      }
      await this.rest();
    }
  }
}
