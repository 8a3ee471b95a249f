import http from 'node:http';
import type { WatchEvent } from '@graph-history/domain';

/** A batch ready to send: its request body, serialised before the measured part of a phase. */
export interface PreparedBatch {
  graphKey: string;
  body: string;
}

/**
 * Sends each graph's batches to one of the ingestors (chosen by the graph key's number), over
 * kept-alive `node:http` connections: the bench shares the machine with what it measures, and
 * `fetch` costs several times the CPU per request.
 */
export class IngestClient {
  private readonly agent = new http.Agent({ keepAlive: true });

  constructor(
    private readonly baseUrls: string[],
    private readonly auth: string,
  ) {}

  static prepare(graphKey: string, events: WatchEvent[]): PreparedBatch {
    return { graphKey, body: JSON.stringify({ events }) };
  }

  send({ graphKey, body }: PreparedBatch): Promise<{ accepted: number; duplicates: number }> {
    const baseUrl = this.baseUrls[Number(/\d+$/.exec(graphKey)?.[0] ?? 0) % this.baseUrls.length];
    const headers = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      authorization: this.auth,
    };
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${baseUrl}/ingest/v1/graphs/${graphKey}/events`,
        { method: 'POST', headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 202)
              reject(new Error(`ingest of ${graphKey} answered ${res.statusCode}: ${text}`));
            else resolve(JSON.parse(text) as { accepted: number; duplicates: number });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
