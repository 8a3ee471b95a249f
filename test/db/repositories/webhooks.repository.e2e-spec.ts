import {
  AccountRepository,
  Db,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
} from '@graph-history/db';
import { NOTICE_TYPES } from '@graph-history/domain';
import { createTestDatabase, TestDatabase } from '../../support/test-database';
import { insertEndpoint, insertGraph, insertNotice } from '../../support/webhooks';

const URL = 'http://127.0.0.1:9/hooks';
const POLICY = { retrySchedule: [1_000, 10_000], disableAfterMs: 60_000 };
const FAIL = { durationMs: 5, statusCode: 500, error: null };
const OK = { durationMs: 5, statusCode: 204, error: null };

/** Webhook endpoints and deliveries on a real database. */
describe('webhook repositories', () => {
  let t: TestDatabase;
  let db: Db;
  let deliveries: WebhookDeliveryRepository;
  let endpoints: WebhookEndpointRepository;
  let account = 0;

  const newAccount = async () =>
    (await new AccountRepository(db).findOrCreate(`acct-${++account}`, Date.now())).accountId;
  const deliveriesOf = (endpointId: string) =>
    db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('delivery_id')
      .execute();

  beforeAll(async () => {
    t = await createTestDatabase({ max: 8 });
    db = t.db;
    deliveries = new WebhookDeliveryRepository(db);
    endpoints = new WebhookEndpointRepository(db);
  });
  afterAll(() => t.drop());
  // every test starts with nothing left to dispatch or to send
  beforeEach(async () => {
    await deliveries.dispatch(1_000_000, Date.now());
    await db.updateTable('webhook_deliveries').set({ status: 'failed' }).execute();
  });

  it('dispatches each notice once, to the enabled endpoints of its account that want its type and graph', async () => {
    const a = await newAccount();
    const other = await newAccount();
    const g1 = await insertGraph(db, a, 'wh-g1');
    const g2 = await insertGraph(db, a, 'wh-g2');
    const all = await insertEndpoint(db, { accountId: a, url: URL });
    const failedOnly = await insertEndpoint(db, { accountId: a, url: URL, types: ['node.failed'] });
    const g2Only = await insertEndpoint(db, { accountId: a, url: URL, graphKeys: ['wh-g2'] });
    const disabled = await insertEndpoint(db, { accountId: a, url: URL });
    await db
      .updateTable('webhook_endpoints')
      .set({ disabled: Date.now(), disabled_reason: 'test' })
      .where('endpoint_id', '=', disabled.endpointId)
      .execute();
    const foreign = await insertEndpoint(db, { accountId: other, url: URL });

    const n1 = await insertNotice(db, { accountId: a, graphId: g1, type: 'node.failed' });
    const n2 = await insertNotice(db, { accountId: a, graphId: g2, type: 'session.ended' });
    expect(await deliveries.dispatch(100, Date.now())).toEqual({ notices: 2, deliveries: 4 });
    expect(await deliveries.dispatch(100, Date.now())).toEqual({ notices: 0, deliveries: 0 });

    const ids = async (e: { endpointId: string }) =>
      (await deliveriesOf(e.endpointId)).map((d) => d.notice_id);
    expect(await ids(all)).toEqual([n1.id, n2.id]);
    expect(await ids(failedOnly)).toEqual([n1.id]);
    expect(await ids(g2Only)).toEqual([n2.id]);
    expect(await ids(disabled)).toEqual([]);
    expect(await ids(foreign)).toEqual([]);
    const [first] = await deliveriesOf(all.endpointId);
    expect(first!.body).toBe(n1.body);
  });

  it('dispatches every notice exactly once when several dispatchers run at once', async () => {
    const a = await newAccount();
    const g = await insertGraph(db, a, 'wh-race');
    const e1 = await insertEndpoint(db, { accountId: a, url: URL });
    const e2 = await insertEndpoint(db, { accountId: a, url: URL });
    const made = [];
    for (let i = 0; i < 300; i++)
      made.push(await insertNotice(db, { accountId: a, graphId: g, type: NOTICE_TYPES[i % 5]! }));
    const runs = await Promise.all(
      Array.from({ length: 6 }, async () => {
        let total = 0;
        for (;;) {
          const { notices, deliveries: d } = await deliveries.dispatch(20, Date.now());
          total += d;
          if (notices === 0) return total;
        }
      }),
    );
    expect(runs.reduce((s, n) => s + n, 0)).toBe(600);
    for (const e of [e1, e2])
      expect((await deliveriesOf(e.endpointId)).map((d) => d.notice_id).sort()).toEqual(
        made.map((n) => n.id).sort(),
      );
  });

  it('leases due deliveries to one claimer at a time, and again once the lease ran out', async () => {
    const a = await newAccount();
    const g = await insertGraph(db, a, 'wh-claim');
    const e = await insertEndpoint(db, { accountId: a, url: URL });
    for (let i = 0; i < 40; i++)
      await insertNotice(db, { accountId: a, graphId: g, type: 'node.failed' });
    const now = Date.now();
    await deliveries.dispatch(100, now);
    const claims = await Promise.all(
      Array.from({ length: 5 }, () => deliveries.claimDue(15, now, 1_000)),
    );
    const claimed = claims.flat().filter((d) => d.endpointId === e.endpointId);
    expect(claimed).toHaveLength(40);
    expect(new Set(claimed.map((d) => d.deliveryId)).size).toBe(40);
    expect(claimed[0]!.secrets).toEqual([e.secret]);
    expect(await deliveries.claimDue(100, now + 500, 1_000)).toEqual([]);
    expect(await deliveries.claimDue(100, now + 1_001, 1_000)).toHaveLength(40);
  });

  it('records attempts: retries on the schedule, then fails; a 2xx delivers', async () => {
    const a = await newAccount();
    const g = await insertGraph(db, a, 'wh-attempts');
    const e = await insertEndpoint(db, { accountId: a, url: URL });
    const n1 = await insertNotice(db, { accountId: a, graphId: g, type: 'node.failed' });
    const n2 = await insertNotice(db, { accountId: a, graphId: g, type: 'node.failed' });
    const t0 = Date.now();
    await deliveries.dispatch(100, t0);
    const [d1, d2] = await deliveries.claimDue(10, t0, 1_000_000);
    const at = (ms: number) => ({ ...FAIL, started: ms });

    expect(await deliveries.recordAttempt(d1!, at(t0), POLICY, t0 + 5)).toEqual({
      outcome: 'retry',
      disabledEndpoint: false,
    });
    expect(await deliveries.claimDue(10, t0 + 1_004, 1_000)).toEqual([]); // not due yet
    const [again] = await deliveries.claimDue(10, t0 + 1_005, 1_000);
    expect(again!.deliveryId).toBe(d1!.deliveryId);
    expect(again!.attempts).toBe(1);
    await deliveries.recordAttempt(again!, at(t0 + 1_005), POLICY, t0 + 1_010);
    const [third] = await deliveries.claimDue(10, t0 + 11_010, 1_000);
    expect(await deliveries.recordAttempt(third!, at(t0 + 11_010), POLICY, t0 + 11_015)).toEqual({
      outcome: 'failed',
      disabledEndpoint: false,
    });
    expect(
      await deliveries.recordAttempt(d2!, { ...OK, started: t0 }, POLICY, t0 + 5),
    ).toMatchObject({ outcome: 'delivered' });
    expect(await deliveries.recordAttempt(d2!, { ...OK, started: t0 }, POLICY, t0 + 5)).toEqual({
      outcome: 'gone',
      disabledEndpoint: false,
    });

    const rows = await deliveriesOf(e.endpointId);
    expect(rows.map((r) => [r.notice_id, r.status, r.attempts])).toEqual([
      [n1.id, 'failed', 3],
      [n2.id, 'delivered', 1],
    ]);
    const attempts = await deliveries.attemptsOfEndpoint(e.endpointId, 10);
    expect(attempts.map((x) => [x.noticeId, x.attemptNo, x.statusCode])).toEqual([
      [n1.id, 3, 500],
      [n1.id, 2, 500],
      [n2.id, 1, 204], // started with n1's first: the later delivery first
      [n1.id, 1, 500],
    ]);
    expect((await endpoints.findById(e.endpointId))!.failingSince).toBeNull();
  });

  it('disables an endpoint whose attempts failed for the whole spell; a success ends a spell', async () => {
    const a = await newAccount();
    const g = await insertGraph(db, a, 'wh-disable');
    const e = await insertEndpoint(db, { accountId: a, url: URL });
    for (let i = 0; i < 3; i++)
      await insertNotice(db, { accountId: a, graphId: g, type: 'node.failed' });
    const t0 = Date.now();
    await deliveries.dispatch(100, t0);
    const [d1, d2, d3] = await deliveries.claimDue(10, t0, 1_000);
    const policy = { retrySchedule: [1], disableAfterMs: 60_000 };
    await deliveries.recordAttempt(d1!, { ...FAIL, started: t0 }, policy, t0);
    expect((await endpoints.findById(e.endpointId))!.failingSince).toBe(t0);
    await deliveries.recordAttempt(d2!, { ...OK, started: t0 + 30_000 }, policy, t0 + 30_000);
    expect((await endpoints.findById(e.endpointId))!.failingSince).toBeNull();
    const [retry] = await deliveries.claimDue(10, t0 + 40_000, 1_000, d1!.deliveryId);
    await deliveries.recordAttempt(retry!, { ...FAIL, started: t0 + 40_000 }, policy, t0 + 40_000);
    expect(
      await deliveries.recordAttempt(d3!, { ...FAIL, started: t0 + 99_000 }, policy, t0 + 99_999),
    ).toEqual({ outcome: 'retry', disabledEndpoint: false });
    const stillOn = await endpoints.findById(e.endpointId);
    expect(stillOn!.disabled).toBeNull();
    const [last] = await deliveries.claimDue(10, t0 + 100_001, 1_000);
    expect(
      await deliveries.recordAttempt(
        last!,
        { ...FAIL, started: t0 + 100_001 },
        policy,
        t0 + 100_002,
      ),
    ).toEqual({ outcome: 'failed', disabledEndpoint: true });
    const off = await endpoints.findById(e.endpointId);
    expect(off!.disabled).toBe(t0 + 100_002);
    expect(off!.disabledReason).toMatch(/60 s/);

    // nothing new goes to a disabled endpoint, and nothing pending is claimed for it
    await insertNotice(db, { accountId: a, graphId: g, type: 'node.failed' });
    expect(await deliveries.dispatch(100, t0 + 100_003)).toEqual({ notices: 1, deliveries: 0 });
    await endpoints.enable(e.endpointId, t0 + 100_004);
    expect((await endpoints.findById(e.endpointId))!.disabled).toBeNull();
  });

  it('says "disabled" to exactly one of many attempts failing at once past the spell', async () => {
    const a = await newAccount();
    const g = await insertGraph(db, a, 'wh-disable-once');
    const e = await insertEndpoint(db, { accountId: a, url: URL });
    for (let i = 0; i < 12; i++)
      await insertNotice(db, { accountId: a, graphId: g, type: 'node.failed' });
    const t0 = Date.now();
    await deliveries.dispatch(100, t0);
    await db
      .updateTable('webhook_endpoints')
      .set({ failing_since: t0 - 120_000 })
      .where('endpoint_id', '=', e.endpointId)
      .execute();
    const claimed = await deliveries.claimDue(100, t0, 1_000_000);
    expect(claimed).toHaveLength(12);
    const recorded = await Promise.all(
      claimed.map((d) => deliveries.recordAttempt(d, { ...FAIL, started: t0 }, POLICY, t0)),
    );
    expect(recorded.filter((r) => r.disabledEndpoint)).toHaveLength(1);
    expect(recorded.every((r) => r.outcome === 'retry')).toBe(true);
  });

  it('signs with both secrets until the overlap after a rotation ends', async () => {
    const a = await newAccount();
    const g = await insertGraph(db, a, 'wh-rotate');
    const e = await insertEndpoint(db, { accountId: a, url: URL });
    await insertNotice(db, { accountId: a, graphId: g, type: 'node.failed' });
    const t0 = Date.now();
    await deliveries.dispatch(100, t0);
    await endpoints.rotateSecret(e.endpointId, 'whsec_new', t0 + 1_000);
    const [during] = await deliveries.claimDue(10, t0, 10);
    expect(during!.secrets).toEqual(['whsec_new', e.secret]);
    const [after] = await deliveries.claimDue(10, t0 + 1_000, 10);
    expect(after!.secrets).toEqual(['whsec_new']);
  });

  it('deletes finished deliveries older than the cut with their attempts, never pending ones', async () => {
    const a = await newAccount();
    const g = await insertGraph(db, a, 'wh-prune');
    const e = await insertEndpoint(db, { accountId: a, url: URL });
    for (let i = 0; i < 3; i++)
      await insertNotice(db, { accountId: a, graphId: g, type: 'node.failed' });
    const t0 = Date.now();
    await deliveries.dispatch(100, t0);
    const [d1, d2] = await deliveries.claimDue(10, t0, 1_000_000);
    await deliveries.recordAttempt(d1!, { ...OK, started: t0 }, POLICY, t0);
    await deliveries.recordAttempt(d2!, { ...OK, started: t0 }, POLICY, t0 + 10);
    const left = async () => (await deliveriesOf(e.endpointId)).map((r) => r.delivery_id);
    await deliveries.deleteFinished(t0, 1_000);
    expect(await left()).toHaveLength(3);
    await deliveries.deleteFinished(t0 + 1, 1_000);
    expect(await left()).not.toContain(d1!.deliveryId);
    expect(await left()).toHaveLength(2);
    await deliveries.deleteFinished(t0 + 1_000_000, 1_000);
    expect((await deliveriesOf(e.endpointId)).map((r) => r.status)).toEqual(['pending']);
    expect(await deliveries.attemptsOfEndpoint(e.endpointId, 10)).toEqual([]);
    expect(await deliveries.attemptsOfEndpoint(e.endpointId, 10)).toEqual([]);
  });

  it('deletes an endpoint with its deliveries and attempts; lists the account endpoints', async () => {
    const a = await newAccount();
    const g = await insertGraph(db, a, 'wh-delete');
    const e1 = await insertEndpoint(db, { accountId: a, url: URL });
    const e2 = await insertEndpoint(db, { accountId: a, url: `${URL}/2` });
    await insertNotice(db, { accountId: a, graphId: g, type: 'node.failed' });
    await deliveries.dispatch(100, Date.now());
    const [d] = (await deliveries.claimDue(10, Date.now(), 10)).filter(
      (x) => x.endpointId === e1.endpointId,
    );
    await deliveries.recordAttempt(d!, { ...OK, started: Date.now() }, POLICY, Date.now());
    expect((await endpoints.listByAccount(a)).map((x) => x.endpointId).sort()).toEqual(
      [e1.endpointId, e2.endpointId].sort(),
    );
    expect(await endpoints.delete(e1.endpointId)).toBe(true);
    expect(await endpoints.delete(e1.endpointId)).toBe(false);
    expect(await deliveriesOf(e1.endpointId)).toEqual([]);
    expect(await deliveries.attemptsOfEndpoint(e1.endpointId, 10)).toEqual([]);
    expect((await endpoints.listByAccount(a)).map((x) => x.endpointId)).toEqual([e2.endpointId]);
  });
});
