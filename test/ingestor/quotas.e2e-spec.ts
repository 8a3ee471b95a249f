import { AccountQuotaRepository, QuotaOverrides } from '@graph-history/db';
import type { WatchEvent } from '@graph-history/domain';
import { createKey, TestKey } from './support/api-keys';
import { EndpointFixture, endpointFixture } from './support/endpoint-fixture';
import { waitFor } from './support/ingestor-harness';
import { metricsAuth } from '../support/metrics-token';
import { validRun } from './support/watch-events';

const jsonBytes = (events: WatchEvent[]) =>
  events.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0);

/** Per-account quotas at the ingest endpoint: graphs held and bytes of stored events. */
describe('ingest quotas', () => {
  let f: EndpointFixture;

  beforeAll(async () => {
    f = await endpointFixture();
  });
  afterAll(() => f.close());

  /** A new account with its own quotas (set before its first ingest: the ingestor caches them). */
  async function accountWith(name: string, quotas: Partial<QuotaOverrides>): Promise<TestKey> {
    const key = await createKey(f.t.db, name);
    await new AccountQuotaRepository(f.t.db).setOverrides(key.accountId, quotas, Date.now());
    return key;
  }
  const post = (key: TestKey, graphKey: string, events: WatchEvent[]) =>
    f.post(graphKey, { events }, key.auth);
  const directoryRow = (graphKey: string) =>
    f.t.db
      .selectFrom('graph_directory')
      .selectAll()
      .where('graph_key', '=', graphKey)
      .executeTakeFirst();

  describe('graphs', () => {
    it('refuses the graph past the quota with 403 quota_exceeded, creating nothing; existing graphs still accept events', async () => {
      const key = await accountWith('two-graphs', { maxGraphs: 2 });
      for (const g of ['q-a', 'q-b'])
        expect((await post(key, g, validRun(g, 3))).statusCode).toBe(202);

      const res = await post(key, 'q-c', validRun('q-c', 3));
      expect(res.statusCode).toBe(403);
      expect(res.headers.get('request-id')).toMatch(/^req_/);
      const { error } = res.json();
      expect(error).toMatchObject({
        type: 'invalid_request_error',
        code: 'quota_exceeded',
        param: 'graph_key',
        quota: 'graphs',
        limit: 2,
        usage: 2,
        requested: 1,
      });
      expect(error.doc_url).toMatch(/\/docs\/errors#quota_exceeded$/);
      expect(error.message).toContain('2 graphs');
      expect(error.message).toContain('graph-history accounts set-quota --graphs');
      expect(await directoryRow('q-c')).toBeUndefined();
      expect(await f.graphRow('q-c')).toBeUndefined();

      const more = validRun('q-a', 6).slice(3);
      expect((await post(key, 'q-a', more)).json()).toMatchObject({ accepted: 3 });
      expect(await f.graphRow('q-a')).toMatchObject({ ingested_seq: 6 });
      // another account is not limited by this one's quota
      expect((await f.post('q-c', { events: validRun('q-c', 1) })).statusCode).toBe(202);
    });

    it('lets exactly the quota through when new graphs are created at once', async () => {
      const key = await accountWith('race-graphs', { maxGraphs: 3 });
      const keys = Array.from({ length: 8 }, (_, i) => `race-${i}`);
      const statuses = await Promise.all(
        keys.map(async (g) => (await post(key, g, validRun(g, 2))).statusCode),
      );
      expect(statuses.filter((s) => s === 202)).toHaveLength(3);
      expect(statuses.filter((s) => s === 403)).toHaveLength(5);
      const held = await f.t.db
        .selectFrom('graphs')
        .select('graph_key')
        .where('account_id', '=', key.accountId)
        .execute();
      expect(held).toHaveLength(3);
    });
  });

  describe('bytes', () => {
    const run = validRun('by', 30);
    const [first, second, last] = [run.slice(0, 10), run.slice(10, 20), run.slice(20, 21)];
    const limit = jsonBytes(first) + jsonBytes(last) + 10;
    let key: TestKey;
    beforeAll(async () => {
      key = await accountWith('few-bytes', { maxBytes: limit });
    });

    it('counts what a batch stores, and refuses one that would pass the quota with nothing stored', async () => {
      expect((await post(key, 'by', first)).statusCode).toBe(202);
      const stored = await f.graphRow('by');
      expect(stored).toMatchObject({ ingested_seq: 10, stored_bytes: jsonBytes(first) });

      const res = await post(key, 'by', second);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({
        type: 'invalid_request_error',
        code: 'quota_exceeded',
        param: 'events',
        quota: 'bytes',
        limit,
        usage: jsonBytes(first),
        requested: jsonBytes(second),
      });
      expect(res.json().error.message).toContain('graph-history accounts set-quota --bytes');
      expect(await f.graphRow('by')).toEqual(stored);
      expect(await f.inboxOf('by')).toHaveLength(10);

      // a new graph is not created for a batch the quota refuses
      expect((await post(key, 'by-new', validRun('bn', 20))).statusCode).toBe(403);
      expect(await directoryRow('by-new')).toBeUndefined();
    });

    it('still answers re-sent events (duplicates store nothing) and takes what fits', async () => {
      expect((await post(key, 'by', first)).json()).toMatchObject({ accepted: 0, duplicates: 10 });
      expect((await post(key, 'by', last)).json()).toMatchObject({ accepted: 1 });
      expect(await f.graphRow('by')).toMatchObject({
        ingested_seq: 11,
        stored_bytes: jsonBytes(first) + jsonBytes(last),
      });
    });

    it('takes the refused batch once the quota is raised (within the 5 s the ingestor caches it)', async () => {
      await new AccountQuotaRepository(f.t.db).setOverrides(
        key.accountId,
        { maxBytes: 10 * limit },
        Date.now(),
      );
      const res = await waitFor(
        'the raised quota',
        async () => {
          const r = await post(key, 'by', second);
          return r.statusCode === 202 ? r : undefined;
        },
        10_000,
      );
      expect(res.json()).toMatchObject({ accepted: 10 });
    });
  });

  it('counts refusals per quota in /metrics', async () => {
    const metrics = await f.app.request('GET', '/metrics', { headers: metricsAuth });
    expect(metrics.body).toMatch(/graph_history_quota_refusals_total\{quota="graphs"\} 6\b/);
    // two refusals, then as many as the raised-quota test polled before the ingestor saw it
    const bytes = /graph_history_quota_refusals_total\{quota="bytes"\} (\d+)/.exec(metrics.body);
    expect(Number(bytes?.[1])).toBeGreaterThanOrEqual(2);
  });
});
