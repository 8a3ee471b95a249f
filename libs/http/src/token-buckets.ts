import { RateLimiterRes } from 'rate-limiter-flexible';
import { InsuranceLimiter } from './insurance-limiter';
import type { RateLimitDegradation } from './rate-limit-degradation';
import type { RedisClient } from './redis-client';
import { RedisScript } from './redis-script';
import { TOKEN_BUCKETS_TAKE_SCRIPT } from './token-bucket-script';

const TAKE = new RedisScript(TOKEN_BUCKETS_TAKE_SCRIPT);

export interface BucketLimits {
  perSecond: number;
  /** Bucket size: the most that can be taken at once. */
  burst: number;
}

export interface BucketTake {
  /** The bucket's name within its group. */
  name: string;
  /** Tokens to take; more than the burst takes the whole bucket (so it can ever succeed). */
  cost: number;
  limits: BucketLimits;
}

export interface BucketsDecision {
  allowed: boolean;
  /** Refused: the bucket that refused (the longest wait); allowed: the one with least left. */
  binding: string;
  /** Refused: ms until every bucket holds its cost; allowed: ms until the binding one is full. */
  msBeforeNext: number;
}

/**
 * Groups of token buckets in Redis, shared by every process: a take debits all of a group's
 * buckets at once or none (one Lua script; the group's keys share a `{hash tag}`, hence a Redis
 * Cluster slot). Limits travel with each take, so each group may have its own. While Redis fails,
 * an in-process insurance limiter of the same size per window stands in (each process then limits
 * on its own), as the read API's key limiter does.
 */
export class TokenBuckets {
  private readonly insurance = new Map<string, InsuranceLimiter>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keyPrefix: string,
    private readonly degradation: Pick<RateLimitDegradation, 'usedInsurance' | 'decided'>,
  ) {}

  async take(group: string, takes: readonly BucketTake[]): Promise<BucketsDecision> {
    const clamped = takes.map((t) => ({ ...t, cost: Math.min(t.cost, t.limits.burst) }));
    let out: number[];
    try {
      out = (await TAKE.run(
        this.redis,
        clamped.map((t) => `${this.keyPrefix}{${group}}:${t.name}`),
        clamped.flatMap((t) => [t.cost, t.limits.burst, t.limits.perSecond]),
      )) as number[];
    } catch {
      return this.takeInsured(group, clamped);
    }
    this.degradation.decided();
    const allowed = out[0] === 1;
    const buckets = clamped.map((t, i) => ({ t, left: out[1 + 2 * i]!, ms: out[2 + 2 * i]! }));
    const binding = allowed
      ? buckets.reduce((a, b) => (b.left / b.t.limits.burst < a.left / a.t.limits.burst ? b : a))
      : buckets.reduce((a, b) => (b.ms > a.ms ? b : a));
    return { allowed, binding: binding.t.name, msBeforeNext: binding.ms };
  }

  /** The take on this process's own limiters; one bucket refusing, nothing is taken. */
  private async takeInsured(group: string, takes: BucketTake[]): Promise<BucketsDecision> {
    this.degradation.usedInsurance();
    const taken: { limiter: InsuranceLimiter; key: string; cost: number }[] = [];
    let last: RateLimiterRes | undefined;
    for (const t of takes) {
      const limiter = this.insuranceFor(t.limits);
      const key = `${group}:${t.name}`;
      try {
        last = await limiter.consume(key, t.cost);
        taken.push({ limiter, key, cost: t.cost });
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        // the memory limiter counts a refused take too: give back every bucket's
        taken.push({ limiter, key, cost: t.cost });
        await Promise.all(taken.map((g) => g.limiter.reward(g.key, g.cost)));
        return { allowed: false, binding: t.name, msBeforeNext: err.msBeforeNext };
      }
    }
    return { allowed: true, binding: takes[0]!.name, msBeforeNext: last?.msBeforeNext ?? 0 };
  }

  private insuranceFor({ perSecond, burst }: BucketLimits): InsuranceLimiter {
    const id = `${perSecond}/${burst}`;
    let limiter = this.insurance.get(id);
    if (!limiter) {
      limiter = new InsuranceLimiter(
        {
          keyPrefix: `${this.keyPrefix}insurance:${id}`,
          points: burst,
          duration: Math.max(1, Math.ceil(burst / perSecond)),
        },
        () => undefined,
      );
      this.insurance.set(id, limiter);
    }
    return limiter;
  }
}
