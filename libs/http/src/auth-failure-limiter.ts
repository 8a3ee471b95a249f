import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { InsuranceLimiter } from './insurance-limiter';
import type { RedisClient } from './redis-client';

export const AUTH_FAILURES_PER_WINDOW = 20;
export const AUTH_FAILURE_WINDOW_S = 60;
const MAX_BLOCKED = 10_000;

/**
 * Brute-force guard: failed key look-ups per client address, counted in Redis across replicas and
 * both apps (while Redis fails, per process). Past the limit the address is blocked until the
 * window ends; the block is kept in process so a blocked address costs no Redis call. What a
 * blocked address may still do is the caller's choice (see GuardedAuth).
 */
export class AuthFailureLimiter {
  private readonly limiter: RateLimiterRedis;
  private readonly blockedUntil = new Map<string, number>();

  constructor(redis: RedisClient, keyPrefix: string, onInsurance: () => void = () => undefined) {
    const opts = { points: AUTH_FAILURES_PER_WINDOW, duration: AUTH_FAILURE_WINDOW_S };
    this.limiter = new RateLimiterRedis({
      ...opts,
      storeClient: redis,
      keyPrefix,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new InsuranceLimiter(
        { ...opts, keyPrefix: `${keyPrefix}:insurance` },
        onInsurance,
      ),
    });
  }

  /** Seconds the address stays blocked; 0 when it is not. */
  blockedFor(address: string, now = Date.now()): number {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return 0;
    if (until > now) return Math.ceil((until - now) / 1000);
    this.blockedUntil.delete(address);
    return 0;
  }

  /** Counts a failed look-up; the seconds the address is now blocked for (0: not blocked). */
  async recordFailure(address: string, now = Date.now()): Promise<number> {
    try {
      await this.limiter.consume(address);
      return 0;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      if (this.blockedUntil.size > MAX_BLOCKED) this.blockedUntil.clear();
      this.blockedUntil.set(address, now + err.msBeforeNext);
      return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    }
  }
}
