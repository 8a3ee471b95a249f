import { Inject, Injectable, OnApplicationShutdown, Provider } from '@nestjs/common';
import { Config } from '@graph-history/config';
import {
  AccountConcurrency,
  bruteForceGuardProviders,
  CONFIG,
  limiterRedis,
  RedisClient,
} from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';
import { FairShare } from './fair-share';
import { KeyRateLimiter } from './key-rate-limiter';
import { RateLimitDegradation } from '@graph-history/http';

/** Prefix of the rate limiters' Redis keys (tests give each app its own). */
export const RATE_LIMIT_PREFIX = Symbol('RATE_LIMIT_PREFIX');

/**
 * The limiters' Redis connections, one each: rate-limiter-flexible installs its Lua script on the
 * client under one command name, and each limiter uses a different script.
 */
@Injectable()
export class LimiterConnections implements OnApplicationShutdown {
  readonly keys: RedisClient;
  readonly accounts: RedisClient;
  readonly viewers: RedisClient;
  readonly viewerAccounts: RedisClient;

  constructor(@Inject(CONFIG) config: Config, degradation: RateLimitDegradation) {
    const connect = () => limiterRedis(config, () => degradation.redisReady());
    this.keys = connect();
    this.accounts = connect();
    this.viewers = connect();
    this.viewerAccounts = connect();
  }

  onApplicationShutdown(): void {
    for (const c of [this.keys, this.accounts, this.viewers, this.viewerAccounts]) c.disconnect();
  }
}

/** Requests of one account that may wait for a concurrency slot before more are refused. */
const MAX_WAITING_PER_ACCOUNT = 32;

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
    provide: FairShare,
    useFactory: (
      config: Config,
      c: LimiterConnections,
      d: RateLimitDegradation,
      keys: KeyRateLimiter,
      m: ApiMetrics,
    ) =>
      new FairShare(
        keys,
        new KeyRateLimiter(
          c.accounts,
          {
            perSecond: config.ACCOUNT_RATE_LIMIT ?? 2 * config.RATE_LIMIT_PER_SECOND,
            burst: config.ACCOUNT_RATE_BURST ?? 2 * config.RATE_LIMIT_BURST,
          },
          `${prefix}rl:account`,
          d,
        ),
        new AccountConcurrency(config.ACCOUNT_CONCURRENCY, MAX_WAITING_PER_ACCOUNT),
        m,
        config.PAGE_MAX_BYTES,
        {
          keys: new KeyRateLimiter(
            c.viewers,
            { perSecond: config.VIEWER_RATE_LIMIT, burst: config.VIEWER_RATE_BURST },
            `${prefix}rl:viewer`,
            d,
          ),
          accounts: new KeyRateLimiter(
            c.viewerAccounts,
            { perSecond: 2 * config.VIEWER_RATE_LIMIT, burst: 2 * config.VIEWER_RATE_BURST },
            `${prefix}rl:viewer-account`,
            d,
          ),
        },
      ),
    inject: [CONFIG, LimiterConnections, RateLimitDegradation, KeyRateLimiter, ApiMetrics],
  },
  ...bruteForceGuardProviders(`${prefix}rl:authfail`),
];
