import { Inject, Injectable, OnApplicationShutdown, Provider } from '@nestjs/common';
import type Redis from 'ioredis';
import { Config } from '@graph-history/config';
import { bruteForceGuardProviders, CONFIG, limiterRedis } from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';
import { KeyRateLimiter } from './key-rate-limiter';
import { RateLimitDegradation } from './rate-limit-degradation';

/** Prefix of the rate limiters' Redis keys (tests give each app its own). */
export const RATE_LIMIT_PREFIX = Symbol('RATE_LIMIT_PREFIX');

/**
 * The key limiter's Redis connection, its own: rate-limiter-flexible installs its Lua script on the
 * client under one command name, and each limiter uses a different script.
 */
@Injectable()
export class LimiterConnections implements OnApplicationShutdown {
  readonly keys: Redis;

  constructor(@Inject(CONFIG) config: Config, degradation: RateLimitDegradation) {
    this.keys = limiterRedis(config.REDIS_URL, () => degradation.redisReady());
  }

  onApplicationShutdown(): void {
    this.keys.disconnect();
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
  ...bruteForceGuardProviders(`${prefix}rl:authfail`),
];
