import type { ServerResponse } from 'node:http';
import { ApiError } from '@graph-history/http';

/** Bytes a client may leave unread before its stream is ended (it resumes with Last-Event-ID). */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

/**
 * What every open stream (of events or notices) does with its Server-Sent Events response:
 * heartbeats, the `error` message, the end (when the client leaves too), the unread-bytes limit.
 */
export abstract class SseStream {
  /** Set once the stream receives its feed's fan-out (it caught up with it). */
  live = false;
  closed = false;
  private lastWrite = Date.now();
  private readonly ended: (() => void)[] = [];

  constructor(private readonly res: ServerResponse) {}

  /** A comment line when nothing was written for `idleMs`, so proxies keep the connection. */
  heartbeat(now: number, idleMs: number): void {
    if (now - this.lastWrite >= idleMs) this.write(':\n\n');
  }

  /** An `error` message with the error's envelope (as a request would get it), then the end. */
  fail(err: unknown): void {
    const e =
      err instanceof ApiError
        ? { type: err.type, code: err.code, message: err.message, param: err.param, ...err.extra }
        : {
            type: 'api_error',
            code: 'api_error',
            message: 'The stream stopped on an error on our side; reconnect with Last-Event-ID.',
          };
    this.write(`event: error\ndata: ${JSON.stringify({ error: e })}\n\n`);
    this.end();
  }

  onEnd(fn: () => void): void {
    this.ended.push(fn);
  }

  /** Ends the response (when the client leaves too); the stream leaves its feed. */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.live = false;
    if (!this.res.writableEnded) this.res.end();
    for (const fn of this.ended) fn();
  }

  protected write(text: string): void {
    if (this.closed) return;
    this.lastWrite = Date.now();
    this.res.write(text);
    if (this.res.writableLength > MAX_UNREAD_BYTES) this.end();
  }
}
