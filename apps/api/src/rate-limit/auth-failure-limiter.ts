import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited, RedisClient } from '@graph-history/http';
import { InsuranceLimiter } from './insurance-limiter';
import { RateLimitDegradation } from './rate-limit-degradation';

export const AUTH_FAILURES_PER_WINDOW = 20;
export const AUTH_FAILURE_WINDOW_S = 60;

/**
 * Brute-force guard: failed authentications per client address, counted in Redis across replicas.
 * Past the limit the address is refused before its key is even looked at, until the window ends;
 * the block is kept in process so a blocked address costs no Redis call.
 */
export class AuthFailureLimiter {
  private readonly limiter: RateLimiterRedis;
  private readonly blockedUntil = new Map<string, number>();

  constructor(redis: RedisClient, keyPrefix: string, degradation: RateLimitDegradation) {
    const opts = { points: AUTH_FAILURES_PER_WINDOW, duration: AUTH_FAILURE_WINDOW_S };
    this.limiter = new RateLimiterRedis({
      ...opts,
      storeClient: redis,
      keyPrefix,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new InsuranceLimiter({ ...opts, keyPrefix: `${keyPrefix}:insurance` }, () =>
        degradation.usedInsurance(),
      ),
    });
  }

  /** Throws 429 while the address is blocked. */
  check(address: string, now = Date.now()): void {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return;
    if (until <= now) this.blockedUntil.delete(address);
    else throw rateLimited(Math.ceil((until - now) / 1000));
  }

  /** Counts a failed authentication; throws 429 once the address is over the limit. */
  async recordFailure(address: string, now = Date.now()): Promise<void> {
    try {
      await this.limiter.consume(address);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      if (this.blockedUntil.size > 10_000) this.blockedUntil.clear();
      this.blockedUntil.set(address, now + err.msBeforeNext);
      throw rateLimited(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    }
  }
}
