import type { ServerResponse } from 'node:http';
import { eventId } from '@graph-history/domain';
import type { ApiError, Principal } from '@graph-history/http';
import type { ExpandRequest } from '../expand/expand-paths';
import { SseStream } from './sse-stream';

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

/**
 * One open event stream: Server-Sent Events on the response, each event once and in order (an
 * event at or below the last one sent is dropped, whoever hands it over).
 */
export class EventStream extends SseStream {
  constructor(
    res: ServerResponse,
    readonly principal: Principal,
    readonly graphId: number,
    readonly graphKey: string,
    readonly expand: ExpandRequest,
    /** The newest event sent (or the position the stream starts after); 0: from the oldest. */
    public seq: number,
  ) {
    super(res);
  }

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
}
