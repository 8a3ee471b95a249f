import type { RedisClient } from '@graph-history/http';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import {
  InsuranceLimiter,
  RateLimitDegradation,
  RedisScript,
  tokenBucketChargeScript,
  tokenBucketReserveScript,
  tokenBucketScript,
} from '@graph-history/http';

export interface RateDecision {
  allowed: boolean;
  /** Bucket size: the most requests a key can make at once. */
  limit: number;
  remaining: number;
  /** Allowed: ms until the bucket is full again. Refused: ms until a request may succeed. */
  msBeforeNext: number;
}

/** Tokens a request reserved (see KeyRateLimiter.reserve), and the bucket after. */
export interface Reservation {
  tokens: number;
  decision: RateDecision;
}

export interface KeyRateLimits {
  perSecond: number;
  burst: number;
}

/** Tokens a replica took from a key's bucket in one Redis call and spends locally. */
interface Lease {
  tokens: number;
  /** Tokens left in the shared bucket when the lease was taken. */
  remaining: number;
  msBeforeNext: number;
  expires: number;
}

const LEASE_MS = 1_000;
const MAX_LEASE = 100;

/**
 * Per-API-key token bucket in Redis, shared by all replicas; while Redis fails, an in-process
 * limiter of the same size per window stands in (each replica then limits on its own).
 * A replica takes tokens in small leases (at most a tenth of the per-second rate, at most 100, kept
 * for 1 s) so a busy key costs one Redis call per lease rather than per request; a lease that
 * cannot be had whole falls back to a single token, so the limit itself stays exact. Concurrent
 * requests of a key wait for the one lease being taken instead of each taking their own.
 */
export class KeyRateLimiter {
  private readonly limiter: RateLimiterRedis;
  private readonly insurance: InsuranceLimiter;
  private readonly chargeScript: RedisScript;
  private readonly reserveScript: RedisScript;
  private readonly leases = new Map<string, Lease>();
  private readonly refills = new Map<string, Promise<RateDecision | null>>();
  private readonly leaseSize: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly limits: KeyRateLimits,
    private readonly keyPrefix: string,
    private readonly degradation: RateLimitDegradation,
  ) {
    const duration = Math.max(1, Math.ceil(limits.burst / limits.perSecond));
    this.leaseSize = Math.max(
      1,
      Math.min(MAX_LEASE, Math.floor(Math.min(limits.perSecond, limits.burst) / 10)),
    );
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points: limits.burst,
      duration,
      customIncrTtlLuaScript: tokenBucketScript(limits.perSecond, limits.burst),
      rejectIfRedisNotReady: true,
      insuranceLimiter: (this.insurance = new InsuranceLimiter(
        { keyPrefix: `${keyPrefix}:insurance`, points: limits.burst, duration },
        () => degradation.usedInsurance(),
      )),
    });
    this.chargeScript = new RedisScript(tokenBucketChargeScript(limits.perSecond, limits.burst));
    this.reserveScript = new RedisScript(tokenBucketReserveScript(limits.perSecond, limits.burst));
  }

  /**
   * Holds up to `tokens` of the key's shared bucket (see the reserve script) for a request about to
   * read: what it may then spend (see FairShare). Held tokens stay in the bucket for admissions;
   * the request pays with settle, which frees them. Null while Redis fails: the request is then
   * charged after the fact, on the insurance limiter, as a whole.
   */
  async reserve(key: string, tokens: number): Promise<Reservation | null> {
    try {
      const [taken, left, msToFull] = (await this.reserveScript.run(
        this.redis,
        [`${this.keyPrefix}:${key}`],
        [tokens],
      )) as [number, number, number];
      this.degradation.decided();
      return { tokens: taken, decision: this.decision(left, msToFull) };
    } catch {
      this.degradation.usedInsurance();
      return null;
    }
  }

  /** Frees tokens a reservation held and will not spend; not waited for. */
  release(key: string, held: number): void {
    if (held > 0) void this.settle(key, 0, held);
  }

  /**
   * Charges a request that reserved `held` tokens what it cost beyond its first token (`spent`),
   * and frees what it held: the bucket may go into debt (see the charge script). What is left, for
   * the RateLimit-* headers. While Redis fails, `spent` is charged on the insurance limiter (null when
   * there is nothing to charge).
   */
  async settle(key: string, spent: number, held: number): Promise<RateDecision | null> {
    try {
      const [left, msToFull] = (await this.chargeScript.run(
        this.redis,
        [`${this.keyPrefix}:${key}`],
        [spent, held],
      )) as [number, number];
      this.degradation.decided();
      return this.decision(left + (this.leases.get(key)?.tokens ?? 0), msToFull);
    } catch {
      this.degradation.usedInsurance();
      if (spent <= 0) return null;
      const res = await this.insurance.penalty(key, spent);
      return this.decision(this.limits.burst - res.consumedPoints, res.msBeforeNext);
    }
  }

  /**
   * Debits `tokens` more from the key's bucket once a request turned out costly: first from this
   * replica's lease, then from the shared bucket, which may go into debt (see the charge script),
   * so the key's next requests wait. What is left, for the RateLimit-* headers.
   */
  async charge(key: string, tokens: number, now = Date.now()): Promise<RateDecision> {
    const lease = this.leases.get(key);
    const fromLease = lease && lease.expires > now ? Math.min(lease.tokens, tokens) : 0;
    if (lease) lease.tokens -= fromLease;
    const rest = tokens - fromLease;
    if (rest === 0) return this.decision(lease!.remaining + lease!.tokens, lease!.msBeforeNext);
    try {
      const [left, msToFull] = (await this.chargeScript.run(
        this.redis,
        [`${this.keyPrefix}:${key}`],
        [rest],
      )) as [number, number];
      this.degradation.decided();
      // the lease's tokens were taken from the bucket already: they are not there to spend again
      return this.decision(left + (lease?.tokens ?? 0), msToFull);
    } catch {
      this.degradation.usedInsurance();
      const res = await this.insurance.penalty(key, rest);
      return this.decision(this.limits.burst - res.consumedPoints, res.msBeforeNext);
    }
  }

  private decision(remaining: number, msBeforeNext: number): RateDecision {
    return {
      allowed: true,
      limit: this.limits.burst,
      remaining: Math.max(0, remaining),
      msBeforeNext,
    };
  }

  /** A token from this replica's lease of the key, without waiting; undefined when there is none. */
  consumeLeased(key: string, now = Date.now()): RateDecision | undefined {
    const lease = this.leases.get(key);
    return lease && lease.tokens > 0 && lease.expires > now ? this.spend(lease) : undefined;
  }

  async consume(key: string, now = Date.now()): Promise<RateDecision> {
    for (;;) {
      const leased = this.consumeLeased(key, now);
      if (leased) return leased;
      // one Redis call at a time per key: concurrent requests share it rather than each taking a lease
      let refill = this.refills.get(key);
      if (!refill) {
        refill = this.refill(key, now).finally(() => this.refills.delete(key));
        this.refills.set(key, refill);
      }
      const refused = await refill;
      if (refused) return refused;
    }
  }

  /** Takes a lease into `leases` (a single token when a whole one cannot be had), or the refusal. */
  private async refill(key: string, now: number): Promise<RateDecision | null> {
    let res = await this.take(key, this.leaseSize);
    let size = this.leaseSize;
    if (res.rejected && size > 1) [res, size] = [await this.take(key, 1), 1];
    if (res.rejected)
      return {
        allowed: false,
        limit: this.limits.burst,
        remaining: 0,
        msBeforeNext: res.res.msBeforeNext,
      };
    if (this.leases.size > 10_000) this.leases.clear();
    this.leases.set(key, {
      tokens: size,
      remaining: res.res.remainingPoints,
      msBeforeNext: res.res.msBeforeNext,
      expires: now + LEASE_MS,
    });
    return null;
  }

  private spend(lease: Lease): RateDecision {
    lease.tokens--;
    return {
      allowed: true,
      limit: this.limits.burst,
      remaining: lease.remaining + lease.tokens,
      msBeforeNext: lease.msBeforeNext,
    };
  }

  private async take(
    key: string,
    tokens: number,
  ): Promise<{ rejected: boolean; res: RateLimiterRes }> {
    try {
      return { rejected: false, res: await this.limiter.consume(key, tokens) };
    } catch (err) {
      if (err instanceof RateLimiterRes) return { rejected: true, res: err };
      throw err;
    } finally {
      this.degradation.decided();
    }
  }
}
