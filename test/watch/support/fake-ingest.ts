import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WatchEvent, validateBatch } from '@graph-history/domain';

interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

interface GraphLedger {
  keys: Set<string>;
  refs: Map<string, { ended: boolean }>;
  events: WatchEvent[];
}

/**
 * A stand-in for the ingest endpoint on 127.0.0.1: same path, Bearer key, 202 answer, key
 * de-duplication and all-or-nothing validation (validateBatch of @graph-history/domain against the
 * graph's refs). Answers can be scripted to simulate outages and refusals.
 */
export class FakeIngest {
  readonly graphs = new Map<string, GraphLedger>();
  readonly requests: Array<{ graph: string; size: number; status: number }> = [];
  readonly script: Scripted[] = [];
  maxConcurrent = 0;
  private inFlight = 0;
  private server: Server | undefined;

  constructor(readonly apiKey = 'sk_test_fake') {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  events(graph: string): WatchEvent[] {
    return this.graphs.get(graph)?.events ?? [];
  }

  private ledger(graph: string): GraphLedger {
    let ledger = this.graphs.get(graph);
    if (!ledger) {
      ledger = { keys: new Set(), refs: new Map(), events: [] };
      this.graphs.set(graph, ledger);
    }
    return ledger;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.inFlight);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const graph = decodeURIComponent(
      /^\/ingest\/v1\/graphs\/([^/]+)\/events$/.exec(req.url ?? '')?.[1] ?? '',
    );
    const answer = this.answer(req, graph, Buffer.concat(chunks).toString('utf8'));
    this.requests.push({
      graph,
      size: eventCount(Buffer.concat(chunks).toString('utf8')),
      status: answer.status,
    });
    this.inFlight--;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }

  private answer(req: IncomingMessage, graph: string, text: string): Scripted {
    const scripted = this.script.shift();
    if (scripted) return scripted;
    if (req.headers.authorization !== `Bearer ${this.apiKey}`)
      return error(401, 'authentication_error', 'api_key_invalid', null, 'Invalid API key.');
    const events = (JSON.parse(text) as { events: unknown[] }).events;
    const ledger = this.ledger(graph);
    const fresh = events.filter((e) => !ledger.keys.has((e as WatchEvent).key));
    const verdict = validateBatch({ get: (ref) => ledger.refs.get(ref) }, fresh, Date.now());
    if (!verdict.ok) {
      const index = events.indexOf(fresh[verdict.index]);
      return error(
        400,
        'invalid_request_error',
        'parameter_invalid',
        `events[${index}].${verdict.rejection.param}`,
        verdict.rejection.message,
      );
    }
    for (const [ref, info] of verdict.refs) ledger.refs.set(ref, info);
    for (const ev of verdict.events) ledger.keys.add(ev.key);
    ledger.events.push(...verdict.events);
    const last = events[events.length - 1] as WatchEvent | undefined;
    return {
      status: 202,
      body: {
        accepted: verdict.events.length,
        duplicates: events.length - fresh.length,
        last_key: last?.key ?? '',
      },
    };
  }
}

export function error(
  status: number,
  type: string,
  code: string,
  param: string | null,
  message: string,
): Scripted {
  return {
    status,
    body: {
      error: { type, code, message, param, doc_url: `https://example.test/docs/errors#${code}` },
    },
  };
}

function eventCount(text: string): number {
  try {
    return (JSON.parse(text) as { events: unknown[] }).events.length;
  } catch {
    return 0;
  }
}
