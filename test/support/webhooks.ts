import { randomBytes } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Db, WebhookEndpointRepository } from '@graph-history/db';
import { generateWebhookSecret, NoticeType } from '@graph-history/domain';

/** A graphs row (and its directory entry) of the account, to give notices a graph. */
export async function insertGraph(db: Db, accountId: number, graphKey: string): Promise<number> {
  const { graph_id } = await db
    .insertInto('graph_directory')
    .values({ graph_key: graphKey, account_id: accountId })
    .returning('graph_id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('graphs')
    .values({
      graph_id,
      graph_key: graphKey,
      account_id: accountId,
      source: 'watch',
      created: Date.now(),
      first_seq: null,
      last_event: null,
      counts: null,
      stalled_seq: null,
      stalled_error: null,
      stalled_at: null,
    })
    .execute();
  return graph_id;
}

export interface InsertedNotice {
  noticeNo: number;
  id: string;
  body: string;
}

/**
 * A notice row as the apply writes it (hand-made body: the notices' public JSON is another
 * branch's; here only `id`, `object` and `type` matter).
 */
export async function insertNotice(
  db: Db,
  n: { accountId: number; graphId: number; type: NoticeType },
): Promise<InsertedNotice> {
  const id = `ntc_${randomBytes(8).toString('hex')}`;
  const created = Date.now();
  const body = JSON.stringify({ id, object: 'notice', type: n.type, created });
  const row = await db
    .insertInto('notices')
    .values({
      account_id: n.accountId,
      graph_id: n.graphId,
      node_no: 1,
      seq: 1,
      type: n.type,
      created,
      body,
    })
    .returning('notice_no')
    .executeTakeFirstOrThrow();
  return { noticeNo: row.notice_no, id, body };
}

/** An endpoint made straight in the database (the CLI checks URLs; tests use 127.0.0.1). */
export async function insertEndpoint(
  db: Db,
  e: { accountId: number; url: string; types?: string[] | null; graphKeys?: string[] | null },
): Promise<{ endpointId: string; secret: string }> {
  const endpointId = `we_${randomBytes(8).toString('hex')}`;
  const secret = generateWebhookSecret();
  await new WebhookEndpointRepository(db).insert({
    endpointId,
    accountId: e.accountId,
    url: e.url,
    types: e.types ?? null,
    graphKeys: e.graphKeys ?? null,
    secret,
    created: Date.now(),
  });
  return { endpointId, secret };
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  at: number;
  /** The status this receiver answered. */
  status: number;
}

/** How the receiver answers its n-th request (from 0): a status, after an optional delay. */
export type Answer = { status: number; delayMs?: number; headers?: Record<string, string> };

/**
 * A real HTTP server on 127.0.0.1 recording every POST. `answer` decides each reply (default 200);
 * `stop()` then `start()` takes it down and back on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Requests whose body arrived, answered or not (the sender may give up first). */
  requests = 0;
  answer: (n: number) => Answer = () => ({ status: 200 });
  private server: Server | undefined;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { status, delayMs = 0, headers = {} } = this.answer(this.requests++);
        const rawBody = Buffer.concat(chunks).toString('utf8');
        setTimeout(() => {
          if (res.destroyed) return;
          this.received.push({ headers: req.headers, rawBody, at: Date.now(), status });
          res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end('ok');
        }, delayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Deliveries answered 2xx, by notice id. */
  delivered(): string[] {
    return this.received
      .filter((r) => r.status >= 200 && r.status < 300)
      .map((r) => String(r.headers['graphhistory-notice-id']));
  }
}
