import { Logger } from '@nestjs/common';
import { WebhookDeliveryRepository } from '@graph-history/db';
import { webhooks } from '@graph-history/client';
import { EndpointFixture, endpointFixture } from './support/endpoint-fixture';
import { waitFor } from './support/ingestor-harness';
import { cli } from '../cli/support/run-cli';
import { insertEndpoint, insertGraph, insertNotice, WebhookReceiver } from '../support/webhooks';

const SCHEDULE = [200, 400, 800, 800, 800, 800, 800, 800, 800, 800];

/**
 * Webhooks end to end: an ingestor with its workers and sweeper, notices written as the apply
 * writes them, and a real HTTP receiver on 127.0.0.1 (allowed by WEBHOOK_ALLOW_PRIVATE_URLS).
 * The retry schedule is shortened to fractions of a second.
 */
describe('webhook deliveries', () => {
  let f: EndpointFixture;
  let graphId: number;
  let receiver: WebhookReceiver;
  let deliveries: WebhookDeliveryRepository;

  beforeAll(async () => {
    f = await endpointFixture(true, {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE.map((ms) => `${ms}ms`).join(','),
      WEBHOOK_TIMEOUT_MS: '500',
      WEBHOOK_DISABLE_AFTER: '1h',
    });
    graphId = await insertGraph(f.t.db, f.owner.accountId, 'hooked');
    deliveries = new WebhookDeliveryRepository(f.t.db);
  });
  afterAll(() => f.close());
  beforeEach(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
  });
  afterEach(async () => {
    await receiver.stop();
    // endpoints of earlier tests would keep receiving this test's notices
    await f.t.db.deleteFrom('webhook_endpoints').execute();
  });

  const notice = () =>
    insertNotice(f.t.db, { accountId: f.owner.accountId, graphId, type: 'node.input_required' });
  /** The endpoint's attempts, newest first, once `n` are recorded (the receiver hears first). */
  const attemptsOf = (endpointId: string, n: number) =>
    waitFor(`${n} attempts recorded`, async () => {
      const recorded = await deliveries.attemptsOfEndpoint(endpointId, 100);
      return recorded.length >= n && recorded;
    });
  const delivered = (n: number) =>
    waitFor(`${n} deliveries answered 2xx`, async () => receiver.delivered().length >= n);

  it('POSTs the notice exactly, signed with the endpoint secret and carrying its id', async () => {
    const e = await insertEndpoint(f.t.db, { accountId: f.owner.accountId, url: receiver.url });
    const n = await notice();
    await delivered(1);
    const [got] = receiver.received;
    expect(got!.rawBody).toBe(n.body);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['graphhistory-notice-id']).toBe(n.id);
    const header = String(got!.headers['graphhistory-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    await expect(webhooks.verify(got!.rawBody, header, e.secret)).resolves.toEqual(
      JSON.parse(n.body),
    );
    await expect(webhooks.verify(got!.rawBody, header, 'whsec_other')).rejects.toThrow();
    const [attempt] = await attemptsOf(e.endpointId, 1);
    expect(attempt).toMatchObject({ noticeId: n.id, attemptNo: 1, statusCode: 200, error: null });
  });

  it('retries after 500s with growing delays until a 2xx, recording every attempt', async () => {
    receiver.answer = (i) => ({ status: i < 3 ? 500 : 200 });
    const e = await insertEndpoint(f.t.db, { accountId: f.owner.accountId, url: receiver.url });
    const n = await notice();
    await delivered(1);
    expect(receiver.received.map((r) => [r.headers['graphhistory-notice-id'], r.status])).toEqual([
      [n.id, 500],
      [n.id, 500],
      [n.id, 500],
      [n.id, 200],
    ]);
    const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i]!.at);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(SCHEDULE[i]! - 5));
    const attempts = await attemptsOf(e.endpointId, 4);
    expect(attempts.map((a) => a.statusCode)).toEqual([200, 500, 500, 500]);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.received).toHaveLength(4); // nothing after the 2xx
  });

  it('gives up on a receiver slower than the timeout and tries again', async () => {
    receiver.answer = (i) => ({ status: 200, delayMs: i === 0 ? 2_000 : 0 });
    const e = await insertEndpoint(f.t.db, { accountId: f.owner.accountId, url: receiver.url });
    const n = await notice();
    await delivered(1);
    expect(receiver.requests).toBe(2);
    expect(receiver.delivered()).toEqual([n.id]);
    const attempts = await attemptsOf(e.endpointId, 2);
    const first = attempts[1]!;
    expect(first).toMatchObject({
      attemptNo: 1,
      statusCode: null,
      error: 'timed out after 500 ms',
    });
    expect(first.durationMs).toBeGreaterThanOrEqual(490);
    expect(first.durationMs).toBeLessThan(1_500);
    expect(attempts[0]).toMatchObject({ statusCode: 200 });
  });

  it('delivers every notice once to a receiver that was down and came back', async () => {
    const e = await insertEndpoint(f.t.db, { accountId: f.owner.accountId, url: receiver.url });
    await receiver.stop();
    const sent = [];
    for (let i = 0; i < 10; i++) sent.push(await notice());
    await waitFor('attempts refused while down', async () => {
      const attempts = await deliveries.attemptsOfEndpoint(e.endpointId, 100);
      return attempts.length >= 20 && attempts.every((a) => /ECONNREFUSED/.test(a.error ?? ''));
    });
    await receiver.start();
    await delivered(10);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.delivered().sort()).toEqual(sent.map((n) => n.id).sort());
  });

  it('disables an endpoint that kept failing (list says so) and sends it nothing more', async () => {
    receiver.answer = () => ({ status: 503 });
    const warned = jest.spyOn(Logger.prototype, 'warn');
    const e = await insertEndpoint(f.t.db, { accountId: f.owner.accountId, url: receiver.url });
    // as if every attempt had failed for longer than WEBHOOK_DISABLE_AFTER
    await f.t.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: Date.now() - 2 * 3_600_000 })
      .where('endpoint_id', '=', e.endpointId)
      .execute();
    await notice();
    await waitFor('the endpoint disabled', async () => {
      const row = await f.t.db
        .selectFrom('webhook_endpoints')
        .select('disabled')
        .where('endpoint_id', '=', e.endpointId)
        .executeTakeFirst();
      return row?.disabled !== null;
    });
    expect(receiver.received).toHaveLength(1);
    const lines = warned.mock.calls.filter((c) => String(c[1]).includes(e.endpointId));
    expect(lines).toHaveLength(1);
    expect(lines[0]![1]).toMatch(
      /^webhook endpoint we_\w+ disabled: every attempt failed for 3600 s;/,
    );
    warned.mockRestore();
    const list = await cli(['webhooks', 'list', '--account', 'owner', '--json'], {
      DATABASE_URL: f.t.url,
    });
    expect(JSON.parse(list.stdout)).toMatchObject({
      id: e.endpointId,
      status: 'disabled',
      disabled_reason: 'every attempt failed for 3600 s or more',
    });
    await notice();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.received).toHaveLength(1);

    receiver.answer = () => ({ status: 200 });
    const enabled = await cli(['webhooks', 'enable', e.endpointId], { DATABASE_URL: f.t.url });
    expect(enabled.code).toBe(0);
    await delivered(1); // the pending delivery goes out again; the notice made while disabled does not
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.received).toHaveLength(2);
  });
});
