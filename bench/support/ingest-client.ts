import type { WatchEvent } from '@graph-history/domain';

/** Sends each graph's batches to one of the ingestors (chosen by the graph key's number). */
export class IngestClient {
  constructor(
    private readonly baseUrls: string[],
    private readonly auth: string,
  ) {}

  async send(
    graphKey: string,
    events: WatchEvent[],
  ): Promise<{ accepted: number; duplicates: number }> {
    const baseUrl = this.baseUrls[Number(/\d+$/.exec(graphKey)?.[0] ?? 0) % this.baseUrls.length];
    const res = await fetch(`${baseUrl}/ingest/v1/graphs/${graphKey}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: this.auth },
      body: JSON.stringify({ events }),
    });
    const body = await res.text();
    if (res.status !== 202)
      throw new Error(`ingest of ${graphKey} answered ${res.status}: ${body}`);
    return JSON.parse(body) as { accepted: number; duplicates: number };
  }
}
