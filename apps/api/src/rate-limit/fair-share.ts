import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountConcurrency, Principal, rateLimited } from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';
import { KeyRateLimiter, RateDecision } from './key-rate-limiter';
import { isExpensive, requestCost } from './request-cost';

interface Admission {
  keyId: string;
  account: string;
}

/** The admission of a request, kept on it (a WeakMap's entries cost every scavenge more). */
const ADMITTED = Symbol('admission');
type AdmittedRequest = FastifyRequest & { [ADMITTED]?: Admission };

const accountBucket = (p: Principal): string => `acct_${p.accountId}`;

/** The decision that binds the client: a refusal, else the one with less left. */
const tighter = (a: RateDecision, b: RateDecision): RateDecision =>
  !a.allowed ? a : !b.allowed ? b : a.remaining <= b.remaining ? a : b;

function tell(reply: FastifyReply, d: RateDecision): void {
  reply
    .header('RateLimit-Limit', d.limit)
    .header('RateLimit-Remaining', d.remaining)
    .header('RateLimit-Reset', Math.max(d.allowed ? 0 : 1, Math.ceil(d.msBeforeNext / 1000)));
}

/**
 * Fair share of the machine between keys and accounts. A request is admitted with one token from
 * its key's bucket and one from its account's (every key of an account shares the latter); once
 * its answer is built, what it cost beyond that token (see requestCost) is charged to both, which
 * may put them in debt. Expensive requests also wait for one of the account's concurrency slots.
 * RateLimit-* headers report the tighter bucket after the charge, and Request-Cost the tokens spent.
 */
export class FairShare {
  constructor(
    private readonly keys: KeyRateLimiter,
    private readonly accounts: KeyRateLimiter,
    private readonly concurrency: AccountConcurrency,
    private readonly metrics: ApiMetrics,
  ) {}

  /**
   * Spends the request's first token and takes its slot; throws 429 when it must wait. Without a
   * promise (undefined) when both buckets have leased tokens here and the request is cheap, the
   * common case; a promise when Redis must be asked or a slot waited for.
   */
  admit(req: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<void> | undefined {
    const account = accountBucket(principal);
    const byKey = this.keys.consumeLeased(principal.keyId);
    const byAccount = byKey && this.accounts.consumeLeased(account);
    if (!byKey || !byAccount) return this.admitFromRedis(req, reply, principal, account, byKey);
    return this.admitWith(req, reply, principal, account, byKey, byAccount);
  }

  private async admitFromRedis(
    req: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
    account: string,
    leasedByKey: RateDecision | undefined,
  ): Promise<void> {
    const byKey = leasedByKey ?? (await this.keys.consume(principal.keyId));
    // a request the key's bucket refuses takes nothing from the account's
    const byAccount = !byKey.allowed
      ? byKey
      : (this.accounts.consumeLeased(account) ?? (await this.accounts.consume(account)));
    await this.admitWith(req, reply, principal, account, byKey, byAccount);
  }

  private admitWith(
    req: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
    account: string,
    byKey: RateDecision,
    byAccount: RateDecision,
  ): Promise<void> | undefined {
    const binding = tighter(byKey, byAccount);
    tell(reply, binding);
    if (!binding.allowed) {
      this.metrics.rateLimited.inc({ reason: binding === byKey ? 'api_key' : 'account' });
      throw rateLimited(Math.max(1, Math.ceil(binding.msBeforeNext / 1000)));
    }
    const admission = { keyId: principal.keyId, account };
    if (!isExpensive(req.url)) {
      (req as AdmittedRequest)[ADMITTED] = admission;
      return undefined;
    }
    return this.concurrency.acquire(principal.accountId).then((release) => {
      if (!release) {
        this.metrics.rateLimited.inc({ reason: 'account_concurrency' });
        throw rateLimited(1);
      }
      // a client that left while waiting has no 'close' to come: give the slot back now
      if (req.raw.socket?.destroyed) release();
      else reply.raw.once('close', release);
      (req as AdmittedRequest)[ADMITTED] = admission;
    });
  }

  /**
   * From onSend, before the body goes out: charges the rest of the request's cost. Undefined when
   * there is nothing to wait for (a request of cost 1, or one not admitted here).
   */
  settle(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> | undefined {
    const a = (req as AdmittedRequest)[ADMITTED];
    if (!a) return undefined;
    const bytes = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.length : 0;
    const cost = requestCost(bytes);
    reply.header('Request-Cost', cost);
    if (cost === 1) return undefined;
    return Promise.all([
      this.keys.charge(a.keyId, cost - 1),
      this.accounts.charge(a.account, cost - 1),
    ]).then(([byKey, byAccount]) => tell(reply, tighter(byKey, byAccount)));
  }
}
