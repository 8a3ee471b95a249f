import type { ServerResponse } from 'node:http';
import { eventId } from '@graph-history/domain';
import { ApiError, type Principal } from '@graph-history/http';
import type { ExpandRequest } from '../expand/expand-paths';

/** An event of a page, as the events list presents it: JSON text, with its sequence. */
export interface StreamItem {
  seq: number;
  json: string;
}

/** Events as SSE messages: `id` the event id, type `message`, `data` the Event object. */
export const formatEvents = (graphId: number, items: StreamItem[]): string =>
  items
    .map((item) => `id: ${eventId(graphId, item.seq)}\nevent: message\ndata: ${item.json}\n\n`)
    .join('');

/** Bytes a client may leave unread before its stream is ended (it resumes with Last-Event-ID). */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

/**
 * One open event stream: Server-Sent Events on the response, each event once and in order (an
 * event at or below the last one sent is dropped, whoever hands it over).
 */
export class EventStream {
  /** Set once the stream receives the graph's fan-out (it caught up with it). */
  live = false;
  closed = false;
  private lastWrite = Date.now();
  private readonly ended: (() => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    readonly principal: Principal,
    readonly graphId: number,
    readonly graphKey: string,
    readonly expand: ExpandRequest,
    /** The newest event sent (or the position the stream starts after); 0: from the oldest. */
    public seq: number,
  ) {}

  send(items: StreamItem[]): void {
    const fresh = items.filter((item) => item.seq > this.seq);
    if (fresh.length > 0) this.sendFormatted(formatEvents(this.graphId, fresh), fresh);
  }

  /** `text` is formatEvents of `items`, all after this stream's position (formatted once per feed). */
  sendFormatted(text: string, items: StreamItem[]): void {
    this.write(text);
    this.seq = items[items.length - 1]!.seq;
  }

  /** The position was trimmed: what the 410 would say; the stream goes on from the oldest event. */
  gap(err: ApiError): void {
    const data = { object: 'gap', code: err.code, message: err.message, ...err.extra };
    this.write(`event: gap\ndata: ${JSON.stringify(data)}\n\n`);
    this.seq = 0;
  }

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

  private write(text: string): void {
    if (this.closed) return;
    this.lastWrite = Date.now();
    this.res.write(text);
    if (this.res.writableLength > MAX_UNREAD_BYTES) this.end();
  }
}
