import { expectApiError } from './support/contract';
import { uniqueLoopbackAddress } from './support/http';
import { type HttpResponse, type IssuedKey, Services } from './support/services';
import { WatchScript } from './support/watch-events';

const PER_SECOND = 1;
const BURST = 3;

/** decisions.md: 429 rate_limit with Retry-After, per key, and the invalid-key brute-force guard. */
describe('conformance: rate limits', () => {
  let s: Services;
  let acme: IssuedKey;
  let second: IssuedKey;

  beforeAll(async () => {
    s = await Services.start({
      RATE_LIMIT_PER_SECOND: String(PER_SECOND),
      RATE_LIMIT_BURST: String(BURST),
    });
    [acme, second] = await Promise.all([s.createKey('acme'), s.createKey('acme')]);
    await s.ingest('rl', new WatchScript().session('s').events, acme.auth);
  }, 90_000);
  afterAll(() => s?.stop());

  const expectRateLimited = (res: HttpResponse): number => {
    const e = expectApiError(res, {
      status: 429,
      type: 'rate_limit_error',
      code: 'rate_limit',
      param: null,
    });
    const retryAfter = String(res.headers['retry-after']);
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
    expect(e.message).toContain(retryAfter);
    return Number(retryAfter);
  };

  it('answers requests beyond the burst with 429 rate_limit, Retry-After in seconds and the wait in the message', async () => {
    const statuses: number[] = [];
    let limited: HttpResponse | undefined;
    for (let i = 0; i < BURST + 3; i++) {
      const res = await s.get('/graphs', acme.auth);
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.slice(0, BURST)).toEqual(Array(BURST).fill(200));
    expect(limited).toBeDefined();
    const wait = expectRateLimited(limited!);

    const other = await s.get('/graphs', second.auth);
    expect(other.status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, wait * 1_000));
    expect((await s.get('/graphs', acme.auth)).status).toBe(200);
  });

  it('limits repeated invalid-key attempts from one address, and no other address', async () => {
    const address = uniqueLoopbackAddress();
    let res: HttpResponse | undefined;
    for (let i = 0; i < 200; i++) {
      res = await s.get('/graphs', `Bearer sk_live_invalid${i}`, { localAddress: address });
      if (res.status !== 401) break;
    }
    expectRateLimited(res!);
    const elsewhere = await s.get('/graphs', second.auth, {
      localAddress: uniqueLoopbackAddress(),
    });
    expect(elsewhere.status).toBe(200);
  });
});
