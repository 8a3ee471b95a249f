import { Inject, Injectable, OnApplicationShutdown, Provider } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { CONFIG, RedisClient } from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { KeyRateLimiter } from './key-rate-limiter';
import { limiterRedis } from './limiter-redis';
import { RateLimitDegradation } from './rate-limit-degradation';

/** Prefix of the rate limiters' Redis keys (tests give each app its own). */
export const RATE_LIMIT_PREFIX = Symbol('RATE_LIMIT_PREFIX');

/**
 * The limiters' Redis connections. Each limiter has its own: rate-limiter-flexible installs its
 * Lua script on the client under one command name, and the two limiters use different scripts.
 */
@Injectable()
export class LimiterConnections implements OnApplicationShutdown {
  readonly keys: RedisClient;
  readonly failures: RedisClient;

  constructor(@Inject(CONFIG) config: Config, degradation: RateLimitDegradation) {
    this.keys = limiterRedis(config, degradation);
    this.failures = limiterRedis(config, degradation);
  }

  onApplicationShutdown(): void {
    this.keys.disconnect();
    this.failures.disconnect();
  }
}

export const rateLimitProviders = (prefix: string): Provider[] => [
  { provide: RATE_LIMIT_PREFIX, useValue: prefix },
  {
    provide: RateLimitDegradation,
    useFactory: (m: ApiMetrics) => new RateLimitDegradation(m),
    inject: [ApiMetrics],
  },
  LimiterConnections,
  {
    provide: KeyRateLimiter,
    useFactory: (config: Config, c: LimiterConnections, d: RateLimitDegradation) =>
      new KeyRateLimiter(
        c.keys,
        { perSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST },
        `${prefix}rl:key`,
        d,
      ),
    inject: [CONFIG, LimiterConnections, RateLimitDegradation],
  },
  {
    provide: AuthFailureLimiter,
    useFactory: (c: LimiterConnections, d: RateLimitDegradation) =>
      new AuthFailureLimiter(c.failures, `${prefix}rl:authfail`, d),
    inject: [LimiterConnections, RateLimitDegradation],
  },
];
