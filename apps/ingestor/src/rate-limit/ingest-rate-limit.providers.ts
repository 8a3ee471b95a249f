import { Inject, Injectable, OnApplicationShutdown, Provider } from '@nestjs/common';
import { Config } from '@graph-history/config';
import {
  CONFIG,
  limiterRedis,
  RateLimitDegradation,
  RedisClient,
  TokenBuckets,
} from '@graph-history/http';
import { StoreSlots } from '../ingest/store-slots';
import { STORE_CONNECTIONS } from '../ingestor-db-options';
import { IngestorMetrics } from '../ops/ingestor-metrics';
import { AccountLimits } from '../quota/account-limits';
import { IngestRateLimit } from './ingest-rate-limit';
import { RecentRefusals } from './recent-refusals';

/** The ingest limiter's own Redis connection: fails fast while Redis is away (see limiterRedis). */
@Injectable()
export class IngestLimiterConnection implements OnApplicationShutdown {
  readonly redis: RedisClient;

  constructor(@Inject(CONFIG) config: Config, degradation: RateLimitDegradation) {
    this.redis = limiterRedis(config, () => degradation.redisReady());
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}

/** Batches of one account waiting for a store slot before more are refused (429, Retry-After 1). */
const STORES_WAITING_PER_ACCOUNT = 64;

export const ingestRateLimitProviders = (prefix: string): Provider[] => [
  {
    provide: StoreSlots,
    // one slot per store connection: a store holds one at a time
    useFactory: () => new StoreSlots(STORE_CONNECTIONS, STORES_WAITING_PER_ACCOUNT),
  },
  {
    provide: RateLimitDegradation,
    useFactory: (m: IngestorMetrics) => new RateLimitDegradation(m),
    inject: [IngestorMetrics],
  },
  IngestLimiterConnection,
  {
    provide: IngestRateLimit,
    useFactory: (
      config: Config,
      c: IngestLimiterConnection,
      d: RateLimitDegradation,
      m: IngestorMetrics,
      a: AccountLimits,
    ) =>
      new IngestRateLimit(
        new TokenBuckets(c.redis, `${prefix}rl:ingest:`, d),
        config,
        m,
        new RecentRefusals(),
        a,
      ),
    inject: [CONFIG, IngestLimiterConnection, RateLimitDegradation, IngestorMetrics, AccountLimits],
  },
];
