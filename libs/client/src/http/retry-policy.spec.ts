import { parseRetryAfter, RetryPolicy } from './retry-policy';

describe('RetryPolicy', () => {
  it('doubles the wait per retry up to maxDelayMs, with jitter between half and all of it', () => {
    const low = new RetryPolicy({ maxRetries: 5, initialDelayMs: 100, maxDelayMs: 1_000 }, () => 0);
    const high = new RetryPolicy(
      { maxRetries: 5, initialDelayMs: 100, maxDelayMs: 1_000 },
      () => 1,
    );
    expect([1, 2, 3, 4, 5].map((r) => low.delayMs(r, null))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((r) => high.delayMs(r, null))).toEqual([100, 200, 400, 800, 1_000]);
  });

  it('waits at least Retry-After, refuses waits beyond maxRetryAfterMs, and stops after maxRetries', () => {
    const policy = new RetryPolicy({ maxRetries: 2, maxRetryAfterMs: 10_000 }, () => 0.5);
    expect(policy.delayMs(1, 3)).toBe(3_000);
    expect(policy.delayMs(1, 0)).toBe(375);
    expect(policy.delayMs(1, 11)).toBeNull();
    expect(policy.delayMs(3, null)).toBeNull();
    expect(new RetryPolicy({ maxRetries: 0 }).delayMs(1, null)).toBeNull();
  });

  it('retries 5xx and 429 only', () => {
    expect([400, 401, 403, 404, 405, 410, 429, 500, 503].filter(RetryPolicy.retriesStatus)).toEqual(
      [429, 500, 503],
    );
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
