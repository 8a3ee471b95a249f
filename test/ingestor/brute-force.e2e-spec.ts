import { createKey } from './support/api-keys';
import { endpointFixture, EndpointFixture } from './support/endpoint-fixture';
import { validRun } from './support/watch-events';

/** The failed-authentication guard on the ingestor (its clients all share 127.0.0.1 here). */
describe('ingestor: brute-force guard', () => {
  let f: EndpointFixture;
  beforeAll(async () => {
    f = await endpointFixture(false);
  });
  afterAll(() => f.close());

  it('refuses Basic auth with a password as api_key_invalid', async () => {
    const basic = `Basic ${Buffer.from(`${f.owner.key}:hunter2`).toString('base64')}`;
    const r = await f.post('bf-basic', { events: validRun('b', 1) }, basic);
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toMatchObject({ code: 'api_key_invalid' });
    const empty = `Basic ${Buffer.from(`${f.owner.key}:`).toString('base64')}`;
    expect((await f.post('bf-basic', { events: validRun('b', 1) }, empty)).statusCode).toBe(202);
  });

  it('answers 429 to key guessing after 20 failed look-ups, yet serves keys that have authenticated', async () => {
    await f.send('bf', validRun('bf', 1));
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await f.post('bf', { events: [] }, `Bearer sk_live_${String(i).padStart(32, 'q')}`);
      statuses.push(r.statusCode);
    }
    // 20 failures from this address in the window (the Basic attempt above was the first)
    expect(statuses.indexOf(429)).toBe(19);
    expect(statuses.slice(19)).toEqual(Array(11).fill(429));
    const blocked = await f.post('bf', { events: [] }, `Bearer sk_live_${'w'.repeat(32)}`);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(1);
    // the owner's key authenticated before: the guesser behind the same address does not lock it out
    expect((await f.post('bf', { events: validRun('bf2', 1) })).statusCode).toBe(202);
    // a key of a new client waits for the block to end
    const fresh = await createKey(f.t.db, 'owner');
    expect((await f.post('bf', { events: validRun('bf3', 1) }, fresh.auth)).statusCode).toBe(429);
  });
});
