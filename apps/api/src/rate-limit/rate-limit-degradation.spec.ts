import { ApiMetrics } from '../ops/api-metrics';
import { RateLimitDegradation, RECOVERED_AFTER_MS } from '@graph-history/http';

describe('RateLimitDegradation', () => {
  const gauge = async (m: ApiMetrics) => (await m.rateLimitDegraded.get()).values[0]?.value;

  it('ends once decisions go through with no insurance decision for a while (a failed-over Cluster)', async () => {
    const metrics = new ApiMetrics();
    const d = new RateLimitDegradation(metrics);
    d.usedInsurance(10_000);
    expect(await gauge(metrics)).toBe(1);
    // keys on a master still down keep falling back: still degraded
    d.decided(10_000 + RECOVERED_AFTER_MS / 2);
    d.usedInsurance(10_000 + RECOVERED_AFTER_MS / 2);
    d.decided(10_000 + RECOVERED_AFTER_MS);
    expect(await gauge(metrics)).toBe(1);
    d.decided(10_000 + RECOVERED_AFTER_MS * 1.5);
    expect(await gauge(metrics)).toBe(0);
    d.usedInsurance(20_000);
    expect(await gauge(metrics)).toBe(1);
  });

  it('ends at once when the connection is ready again', async () => {
    const metrics = new ApiMetrics();
    const d = new RateLimitDegradation(metrics);
    d.usedInsurance();
    d.redisReady();
    expect(await gauge(metrics)).toBe(0);
  });
});
