import http from 'node:http';
import type { WatchEvent } from '@graph-history/domain';

/** A batch ready to send: its request body, serialised before the measured part of a phase. */
export interface PreparedBatch {
  graphKey: string;
  body: string;
}

export interface IngestAnswer {
  status: number;
  /** Retry-After in seconds; 0 when absent. */
  retryAfter: number;
  text: string;
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

  async send(batch: PreparedBatch): Promise<{ accepted: number; duplicates: number }> {
    const res = await this.post(batch);
    if (res.status !== 202)
      throw new Error(`ingest of ${batch.graphKey} answered ${res.status}: ${res.text}`);
    return JSON.parse(res.text) as { accepted: number; duplicates: number };
  }

  /** Sends a batch once, whatever the answer: its status, Retry-After (seconds) and body. */
  post({ graphKey, body }: PreparedBatch): Promise<IngestAnswer> {
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
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              retryAfter: Number(res.headers['retry-after'] ?? 0),
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
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
