import { loadConfig } from '@graph-history/config';
import { AccountRepository, WebhookDeliveryRepository } from '@graph-history/db';
import { WebhookSender } from '@graph-history/http';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { insertEndpoint, insertGraph, insertNotice, WebhookReceiver } from '../support/webhooks';

/**
 * The address check at delivery time: an endpoint stored while private URLs were allowed (or
 * whose host now resolves to a private address) is refused when sent, and nothing is sent.
 */
describe('webhook delivery refuses private addresses', () => {
  let t: TestDatabase;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestDatabase();
    receiver = new WebhookReceiver();
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t.drop();
  });

  it.each([
    ['the literal loopback address', () => receiver.url],
    ['a name that resolves to loopback', () => receiver.url.replace('127.0.0.1', 'localhost')],
  ])('%s is refused, recorded and retried', async (what, url) => {
    const { accountId } = await new AccountRepository(t.db).findOrCreate(what, Date.now());
    const graphId = await insertGraph(t.db, accountId, what);
    await insertEndpoint(t.db, { accountId, url: url() });
    await insertNotice(t.db, { accountId, graphId, type: 'node.failed' });
    const deliveries = new WebhookDeliveryRepository(t.db);
    await deliveries.dispatch(100, Date.now());
    const [claimed] = await deliveries.claimDue(1, Date.now(), 60_000);
    const sender = new WebhookSender(deliveries, loadConfig({}), () => undefined);
    const sent = await sender.send(claimed!);
    expect(sent.outcome).toBe('retry');
    expect(sent.result.statusCode).toBeNull();
    expect(sent.result.error).toMatch(
      /^refused: (127\.0\.0\.1|localhost) resolves to (127\.0\.0\.1|::1), which is not a public address/,
    );
    expect(receiver.requests).toBe(0);

    const allowing = new WebhookSender(
      deliveries,
      loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
      () => undefined,
    );
    const [again] = await deliveries.claimDue(1, Date.now() + 60_000, 60_000);
    expect((await allowing.send(again!)).outcome).toBe('delivered');
    expect(receiver.requests).toBe(1);
    receiver.requests = 0;
  });
});
