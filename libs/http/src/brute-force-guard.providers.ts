import { Inject, Injectable, OnApplicationShutdown, Provider } from '@nestjs/common';
import type { Config } from '@graph-history/config';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { AuthService } from './auth.service';
import { CONFIG } from './core.module';
import { GuardedAuth } from './guarded-auth';
import { limiterRedis } from './limiter-redis';
import type { RedisClient } from './redis-client';

/** The failure limiter's own Redis connection (rate-limiter-flexible installs its script on it). */
@Injectable()
export class AuthFailureRedis implements OnApplicationShutdown {
  readonly redis: RedisClient;

  constructor(@Inject(CONFIG) config: Config) {
    this.redis = limiterRedis(config);
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}

/**
 * GuardedAuth and what it needs. Both apps count failures under the same `keyPrefix` by default
 * (`gh:rl:authfail`), so guessing against one app blocks the address on the other too.
 */
export const bruteForceGuardProviders = (keyPrefix: string): Provider[] => [
  AuthFailureRedis,
  {
    provide: AuthFailureLimiter,
    useFactory: (c: AuthFailureRedis) => new AuthFailureLimiter(c.redis, keyPrefix),
    inject: [AuthFailureRedis],
  },
  {
    provide: GuardedAuth,
    useFactory: (a: AuthService, f: AuthFailureLimiter) => new GuardedAuth(a, f),
    inject: [AuthService, AuthFailureLimiter],
  },
];
