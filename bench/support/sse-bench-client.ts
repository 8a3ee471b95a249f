import http from 'node:http';

/**
 * A Server-Sent Events client for benches: one connection of its own (no agent), each message
 * with an id (an event or a notice; not gaps, not heartbeats) handed to `received` on arrival.
 */
export abstract class SseBenchClient {
  private buffer = '';
  private req: http.ClientRequest | null = null;

  /** What the bench keeps of a message (`data` is its JSON text). */
  protected abstract received(id: string, data: string): void;

  open(url: string, auth: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.req = http.get(url, { headers: { authorization: auth }, agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => this.take(chunk));
        res.on('error', () => undefined);
        resolve();
      });
      this.req.on('error', reject);
    });
  }

  close(): void {
    this.req?.destroy();
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const id = /^id: (\S+)$/m.exec(block);
      const data = /^data: (.*)$/m.exec(block);
      if (id && data) this.received(id[1]!, data[1]!);
    }
  }
}
