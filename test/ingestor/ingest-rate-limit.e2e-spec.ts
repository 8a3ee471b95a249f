import { AccountQuotaRepository, AccountRepository } from '@graph-history/db';
import { limiterRedis, TokenBuckets } from '@graph-history/http';
import { createKey } from './support/api-keys';
import { endpointFixture, EndpointFixture } from './support/endpoint-fixture';
import { validRun, watchEvent } from './support/watch-events';

const bodyOf = (events: unknown[]) => JSON.stringify({ events });

/** Event `i` of a graph whose activities carry 1,000-character summaries. */
const padded = (i: number) =>
  watchEvent(
    `pad-${i}`,
    i === 0 ? 'session.started' : 'activity',
    'pad-s',
    i === 0 ? {} : { summary: 'x'.repeat(1_000) },
  );

describe('per-account ingest limit', () => {
  describe('events a second', () => {
    let f: EndpointFixture;

    beforeAll(async () => {
      f = await endpointFixture(false, {
        INGEST_EVENTS_PER_SECOND: '5',
        INGEST_EVENTS_BURST: '20',
      });
    });
    afterAll(() => f.close());

    it('refuses a batch past the bucket with 429 and Retry-After, storing nothing, for every key of the account only', async () => {
      const run = validRun('ev', 40);
      expect((await f.send('limited', run.slice(0, 15))).accepted).toBe(15);

      const refused = await f.post('limited', { events: run.slice(15, 35) });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit' });
      const wait = Number(refused.headers.get('retry-after'));
      expect(Number.isInteger(wait) && wait >= 2 && wait <= 4).toBe(true);
      expect(refused.json().error.message).toBe(
        `This account sends more than its ingest limit of 5 events a second; wait ${wait} second${wait === 1 ? '' : 's'} before retrying.`,
      );
      expect(await f.inboxOf('limited')).toHaveLength(15);

      // until then the same credentials are held (a second at most) and refused before their
      // body is even parsed
      const heldFrom = Date.now();
      const early = await f.post('limited', 'not json');
      expect(early.statusCode).toBe(429);
      expect(Date.now() - heldFrom).toBeGreaterThanOrEqual(900);
      expect(early.json().error.message).toMatch(/^This account sends more than its ingest limit/);

      // another key of the same account shares the bucket; a new graph is not created
      const sibling = await createKey(f.t.db, 'owner');
      expect(
        (await f.post('sibling', { events: run.slice(15, 35) }, sibling.auth)).statusCode,
      ).toBe(429);
      expect(await f.graphRow('sibling')).toBeUndefined();

      // another account has a bucket of its own
      const other = await createKey(f.t.db, 'other');
      expect((await f.post('others', { events: validRun('ot', 20) }, other.auth)).statusCode).toBe(
        202,
      );

      // once Retry-After has passed, the batch goes through
      await new Promise((r) => setTimeout(r, wait * 1_000));
      expect((await f.send('limited', run.slice(15, 35))).accepted).toBe(20);
    });

    it('takes a batch larger than the whole bucket once the bucket is full', async () => {
      await new Promise((r) => setTimeout(r, 4_000)); // 20 tokens at 5 a second
      expect((await f.send('whole', validRun('wh', 30))).accepted).toBe(30);
      expect((await f.post('whole', { events: validRun('wh2', 1) })).statusCode).toBe(429);
    });
  });

  describe("an account's own events a second (accounts set-quota)", () => {
    let f: EndpointFixture;

    beforeAll(async () => {
      f = await endpointFixture(false, {
        INGEST_EVENTS_PER_SECOND: '1000',
        INGEST_EVENTS_BURST: '1000',
      });
    });
    afterAll(() => f.close());

    it('limits that account at its own rate, and the others at the setting', async () => {
      const slow = await createKey(f.t.db, 'slow');
      const { accountId } = await new AccountRepository(f.t.db).findOrCreate('slow', Date.now());
      await new AccountQuotaRepository(f.t.db).setOverrides(
        accountId,
        { eventsPerSecond: 10 },
        Date.now(),
      );
      // its bucket holds one second of its own rate (as the setting's does): 10 events, and a
      // larger batch takes the whole bucket once it is full
      const run = validRun('sl', 50);
      expect((await f.post('slow', { events: run.slice(0, 40) }, slow.auth)).statusCode).toBe(202);
      const sibling = await createKey(f.t.db, 'slow');
      const refused = await f.post('slow', { events: run.slice(40, 50) }, sibling.auth);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.message).toMatch(/ingest limit of 10 events a second/);
      // an account without its own rate keeps the setting's
      expect((await f.send('fast', validRun('fa', 40))).accepted).toBe(40);
    });
  });

  describe('bytes a second', () => {
    let f: EndpointFixture;

    beforeAll(async () => {
      f = await endpointFixture(false, {
        INGEST_BYTES_PER_SECOND: '100',
        INGEST_BYTES_BURST: '10000',
      });
    });
    afterAll(() => f.close());

    it('refuses by body size, and a refusal by bytes takes no events', async () => {
      const big = Array.from({ length: 12 }, (_, i) => padded(i));
      const first = bodyOf(big.slice(0, 6));
      expect(Buffer.byteLength(first)).toBeGreaterThan(5_000);
      expect(Buffer.byteLength(bodyOf(big.slice(6, 12)))).toBeGreaterThan(5_000);
      expect((await f.post('bytes', first)).statusCode).toBe(202);
      const refused = await f.post('bytes', bodyOf(big.slice(6, 12)));
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.message).toMatch(
        /^This account sends more than its ingest limit of 100 bytes of request body a second; wait \d+ seconds before retrying\.$/,
      );
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(10);
      expect(await f.inboxOf('bytes')).toHaveLength(6);
      // a small batch still fits the bytes left (sent with another key of the account: this
      // one's credentials are refused until Retry-After)
      expect((await f.post('bytes', bodyOf(big.slice(6, 7)))).statusCode).toBe(429);
      const sibling = await createKey(f.t.db, 'owner');
      expect((await f.post('bytes', bodyOf(big.slice(6, 7)), sibling.auth)).statusCode).toBe(202);
    });
  });

  it('limits each process on its own while Redis cannot be reached (insurance)', async () => {
    const redis = limiterRedis({ REDIS_URL: 'redis://127.0.0.1:1' });
    const used: string[] = [];
    const buckets = new TokenBuckets(redis, 'gh:test:dead:', {
      usedInsurance: () => used.push('insurance'),
      decided: () => used.push('redis'),
    });
    const limits = { perSecond: 1, burst: 3 };
    try {
      const take = (cost: number) => buckets.take('acct_1', [{ name: 'events', cost, limits }]);
      expect((await take(2)).allowed).toBe(true);
      const refused = await take(2);
      expect(refused).toMatchObject({ allowed: false, binding: 'events' });
      expect(refused.msBeforeNext).toBeGreaterThan(0);
      expect((await take(1)).allowed).toBe(true);
      expect(used).toEqual(['insurance', 'insurance', 'insurance']);
    } finally {
      redis.disconnect();
    }
  });
});
