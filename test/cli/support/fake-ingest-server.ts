import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedBatch {
  graph: string;
  authorization: string | undefined;
  events: { key: string }[];
}

/** What the handler answers for the n-th request (from 1): a status and body, or 'drop' the connection. */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'drop';

export interface FakeIngestServer {
  url: string;
  requests: ReceivedBatch[];
  /** Largest number of requests that were in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

const accept = (batch: ReceivedBatch): Answer => ({
  status: 202,
  body: { accepted: batch.events.length, duplicates: 0, last_key: batch.events.at(-1)!.key },
});

/** An ingest endpoint stand-in on 127.0.0.1 that records every request. */
export async function startFakeIngestServer(
  answer: (batch: ReceivedBatch, n: number) => Answer = accept,
): Promise<FakeIngestServer> {
  const state = { requests: [] as ReceivedBatch[], maxInFlight: 0, inFlight: 0 };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const match = /^\/ingest\/v1\/graphs\/([^/]+)\/events$/.exec(req.url ?? '');
    const batch: ReceivedBatch = {
      graph: decodeURIComponent(match?.[1] ?? ''),
      authorization: req.headers.authorization,
      events: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: { key: string }[] })
        .events,
    };
    state.requests.push(batch);
    // Answer a little later, so overlapping requests would be seen.
    await new Promise((r) => setTimeout(r, 5));
    state.inFlight--;
    const a =
      match && req.method === 'POST' ? answer(batch, state.requests.length) : { status: 404 };
    if (a === 'drop') return void req.socket.destroy();
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body === undefined ? '' : JSON.stringify(a.body));
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export { accept };
