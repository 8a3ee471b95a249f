/** One dispatched Server-Sent Events message. */
export interface SseMessage {
  /** The `event` field; `message` when the message named none. */
  event: string;
  /** The `data` lines, joined with `\n`. */
  data: string;
  /** The last event id the stream set (by this message or an earlier one); `''` if none yet. */
  id: string;
}

const LF = 10;
const CR = 13;

/**
 * The event-stream interpretation of the HTML standard ("Server-sent events", parsing an event
 * stream), fed text as it arrives: lines end with CRLF, LF or CR (also split across chunks); a
 * line starting with `:` is a comment; fields `event`, `data` (several lines join with `\n`),
 * `id` (ignored when it holds NUL) and `retry` (digits only); a blank line dispatches the message,
 * unless it has no data.
 */
export class SseParser {
  /** The reconnection time the stream asked for (`retry:`), in ms; null until it says. */
  retryMs: number | null = null;
  private lastEventId = '';
  private eventType = '';
  private data: string[] = [];
  private buffer = '';
  /** Where the search for the next line end resumes in `buffer`. */
  private scanned = 0;
  /** The previous chunk ended with CR: a LF starting the next one belongs to that line end. */
  private afterCr = false;

  /** The messages completed by `text`, in order. */
  push(text: string): SseMessage[] {
    const out: SseMessage[] = [];
    if (this.afterCr && text.charCodeAt(0) === LF) text = text.slice(1);
    this.afterCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = this.scanned; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      this.line(this.buffer.slice(start, i), out);
      if (c === CR) {
        if (i + 1 === this.buffer.length) this.afterCr = true;
        else if (this.buffer.charCodeAt(i + 1) === LF) i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    this.scanned = this.buffer.length;
    return out;
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === '') return this.dispatch(out);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventType = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^[0-9]+$/.test(value)) this.retryMs = Number(value);
  }

  private dispatch(out: SseMessage[]): void {
    if (this.data.length > 0)
      out.push({
        event: this.eventType || 'message',
        data: this.data.join('\n'),
        id: this.lastEventId,
      });
    this.data = [];
    this.eventType = '';
  }
}
