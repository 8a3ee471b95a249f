/** One Server-Sent Events message as an EventSource would dispatch it. */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

/** A plain SSE client over fetch (what EventSource does, with an Authorization header). */
export class SseClient {
  readonly messages: SseMessage[] = [];
  comments = 0;
  ended = false;
  private buffer = '';
  private readonly waiters: (() => void)[] = [];

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly body: string,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const abort = new AbortController();
    const r = await fetch(url, { headers, signal: abort.signal });
    if (r.status !== 200) {
      const c = new SseClient(r.status, r.headers, await r.text(), abort);
      c.ended = true;
      return c;
    }
    const c = new SseClient(r.status, r.headers, '', abort);
    void c.read(r.body!.getReader());
    return c;
  }

  /** The messages of type `message` (the events). */
  get events(): SseMessage[] {
    return this.messages.filter((m) => m.event === 'message');
  }

  /** Resolves once `done` holds, or rejects after `ms` (a generous bound, not a timing check). */
  async until(done: (c: SseClient) => boolean, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done(this)) {
      if (Date.now() > deadline) throw new Error(`SSE: condition not met within ${ms} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  close(): void {
    this.abort.abort();
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          this.parse(this.buffer.slice(0, end));
          this.buffer = this.buffer.slice(end + 2);
        }
        this.wake();
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
    this.wake();
  }

  private parse(block: string): void {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    let fields = 0;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'id') id = value;
      else if (name === 'event') event = value;
      else if (name === 'data') data.push(value);
      else continue;
      fields++;
    }
    if (fields > 0 && data.length > 0) this.messages.push({ id, event, data: data.join('\n') });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
