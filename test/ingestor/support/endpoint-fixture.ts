import { Selectable } from 'kysely';
import { GraphsTable } from '@graph-history/db';
import { createTestDatabase, TestDatabase } from '../../support/test-database';
import { createKey, TestKey } from './api-keys';
import {
  deleteQueueKeys,
  RunningIngestor,
  startIngestor,
  TestResponse,
  uniqueQueuePrefix,
  waitFor,
} from './ingestor-harness';

type GraphRow = Selectable<GraphsTable>;

/** A database, an in-process ingestor and a secret key of account `owner`. */
export interface EndpointFixture {
  t: TestDatabase;
  app: RunningIngestor;
  owner: TestKey;
  /** POSTs `body` (JSON-encoded unless a string) to the events endpoint; auth null sends none. */
  post(
    graphKey: string,
    body: unknown,
    auth?: string | null,
    headers?: Record<string, string>,
  ): Promise<TestResponse>;
  /** POSTs `{ events }` with the owner's key and expects 202. */
  send(
    graphKey: string,
    events: unknown[],
  ): Promise<{ accepted: number; duplicates: number; last_key: string }>;
  graphRow(graphKey: string): Promise<GraphRow | undefined>;
  inboxOf(graphKey: string): Promise<{ seq: number; body: unknown }[]>;
  /** Resolves with the graph row once its applied_seq reached `seq`. */
  appliedThrough(graphKey: string, seq: number): Promise<GraphRow>;
  close(): Promise<void>;
}

/** With `runWorkers`, the apply/trim workers and the sweeper run too; `env` adds settings. */
export async function endpointFixture(
  runWorkers = false,
  env: NodeJS.ProcessEnv = {},
): Promise<EndpointFixture> {
  const t = await createTestDatabase();
  const queuePrefix = uniqueQueuePrefix();
  const app = await startIngestor(t.db, t.url, queuePrefix, runWorkers, env);
  const owner = await createKey(t.db, 'owner');
  const graphRow = (graphKey: string) =>
    t.db.selectFrom('graphs').selectAll().where('graph_key', '=', graphKey).executeTakeFirst();
  const post: EndpointFixture['post'] = (graphKey, body, auth = owner.auth, headers = {}) =>
    app.request('POST', `/ingest/v1/graphs/${graphKey}/events`, {
      headers: {
        'content-type': 'application/json',
        ...(auth ? { authorization: auth } : {}),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    t,
    app,
    owner,
    post,
    async send(graphKey, events) {
      const res = await post(graphKey, { events });
      if (res.statusCode !== 202) throw new Error(`ingest answered ${res.statusCode}: ${res.body}`);
      return res.json();
    },
    graphRow,
    async inboxOf(graphKey) {
      const g = await graphRow(graphKey);
      if (!g) return [];
      return t.db
        .selectFrom('inbox')
        .select(['seq', 'body'])
        .where('graph_id', '=', g.graph_id)
        .orderBy('seq')
        .execute();
    },
    appliedThrough: (graphKey, seq) =>
      waitFor(`${graphKey} applied through ${seq}`, async () => {
        const g = await graphRow(graphKey);
        return g && g.applied_seq >= seq ? g : undefined;
      }),
    async close() {
      await app.close();
      await deleteQueueKeys(queuePrefix);
      await t.drop();
    },
  };
}
