import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountConcurrency, Principal, rateLimited } from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';
import { KeyRateLimiter, RateDecision } from './key-rate-limiter';
import { setPageBytes } from './page-budget';
import { bytesPaidFor, isExpensive, readsMuch, requestCost, tokensToReserve } from './request-cost';

/** The two buckets a request draws from: its key's (or viewer session's) and its account's. */
export interface Buckets {
  keys: KeyRateLimiter;
  accounts: KeyRateLimiter;
}

interface Admission extends Buckets {
  keyId: string;
  accountId: number;
  account: string;
  /** Tokens taken before the read beyond the first (from both buckets). */
  reserved: number;
}

/** The admission of a request, kept on it (a WeakMap's entries cost every scavenge more). */
const ADMITTED = Symbol('admission');
type AdmittedRequest = FastifyRequest & { [ADMITTED]?: Admission };

const accountBucket = (p: Principal): string => `acct_${p.accountId}`;
/** The first bucket of a request: its viewer session's, else its key's. */
const keyBucket = (p: Principal): string => (p.viewerSession ? `vs_${p.viewerSession}` : p.keyId);

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
 * its key's bucket and one from its account's (every key of an account shares the latter); it is
 * refused only when a bucket is empty. One that may read much (a list, an expansion: readsMuch)
 * then holds, before it reads, tokens of both buckets (tokensToReserve: a plain list one an item,
 * else what `pageMaxBytes` costs; at most half of what other reads in flight do not hold), and may
 * read the bytes they pay for (pageBytesOf); its pages end early past them. Held tokens stay in
 * the buckets, so reads in flight never refuse other requests: concurrent reads of a key share
 * what it holds. Expensive requests (isExpensive) wait for one of the account's concurrency slots
 * first. Once its answer is built, its cost (see requestCost) is charged and what it held freed;
 * a first item larger than the page bound may put the buckets in debt. RateLimit-* headers report
 * the tighter bucket after the charge, and Request-Cost the tokens spent.
 *
 * Requests of the viewer page, authenticated by its session cookie, draw from buckets of their
 * own (`viewer`): one per session in place of the key's, and one per account for all its viewer
 * sessions in place of the account's. So a person opening a share is never refused because of
 * the account's scripts, nor the scripts because of the person.
 */
export class FairShare {
  private readonly api: Buckets;
  private readonly viewer: Buckets;

  constructor(
    keys: KeyRateLimiter,
    accounts: KeyRateLimiter,
    private readonly concurrency: AccountConcurrency,
    private readonly metrics: ApiMetrics,
    private readonly pageMaxBytes: number,
    viewer?: Buckets,
  ) {
    this.api = { keys, accounts };
    this.viewer = viewer ?? this.api;
  }

  /**
   * Spends the request's first token and takes its slot; throws 429 when it must wait. Without a
   * promise (undefined) when both buckets have leased tokens here and the request is cheap, the
   * common case; a promise when Redis must be asked or a slot waited for.
   */
  admit(req: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<void> | undefined {
    const buckets = principal.viewerSession ? this.viewer : this.api;
    // a literal of one shape (no spread): this runs for every request
    const a: Admission = {
      keys: buckets.keys,
      accounts: buckets.accounts,
      keyId: keyBucket(principal),
      accountId: principal.accountId,
      account: accountBucket(principal),
      reserved: 0,
    };
    const byKey = a.keys.consumeLeased(a.keyId);
    const byAccount = byKey && a.accounts.consumeLeased(a.account);
    if (!byKey || !byAccount) return this.admitFromRedis(req, reply, a, byKey);
    return this.admitWith(req, reply, a, byKey, byAccount);
  }

  private async admitFromRedis(
    req: FastifyRequest,
    reply: FastifyReply,
    a: Admission,
    leasedByKey: RateDecision | undefined,
  ): Promise<void> {
    const byKey = leasedByKey ?? (await a.keys.consume(a.keyId));
    // a request the key's bucket refuses takes nothing from the account's
    const byAccount = !byKey.allowed
      ? byKey
      : (a.accounts.consumeLeased(a.account) ?? (await a.accounts.consume(a.account)));
    await this.admitWith(req, reply, a, byKey, byAccount);
  }

  private admitWith(
    req: FastifyRequest,
    reply: FastifyReply,
    admission: Admission,
    byKey: RateDecision,
    byAccount: RateDecision,
  ): Promise<void> | undefined {
    const binding = tighter(byKey, byAccount);
    tell(reply, binding);
    if (!binding.allowed) {
      this.metrics.rateLimited.inc({ reason: binding === byKey ? 'api_key' : 'account' });
      throw rateLimited(Math.max(1, Math.ceil(binding.msBeforeNext / 1000)));
    }
    if (!readsMuch(req.url)) {
      (req as AdmittedRequest)[ADMITTED] = admission;
      return undefined;
    }
    return this.reserve(req, reply, admission);
  }

  /** Takes the request's concurrency slot when it is expensive, then reserves its tokens. */
  private async reserve(req: FastifyRequest, reply: FastifyReply, a: Admission): Promise<void> {
    if (isExpensive(req.url)) await this.slot(req, reply, a);
    const wanted = tokensToReserve(this.pageMaxBytes, req.url);
    const [byKey, byAccount] = await Promise.all([
      a.keys.reserve(a.keyId, wanted),
      a.accounts.reserve(a.account, wanted),
    ]);
    (req as AdmittedRequest)[ADMITTED] = a;
    if (!byKey || !byAccount) {
      // Redis failed: nothing held; the page bound holds and settle charges the whole cost
      if (byKey) a.keys.release(a.keyId, byKey.tokens);
      if (byAccount) a.accounts.release(a.account, byAccount.tokens);
      setPageBytes(req, this.pageMaxBytes);
      return;
    }
    a.reserved = Math.min(byKey.tokens, byAccount.tokens);
    a.keys.release(a.keyId, byKey.tokens - a.reserved);
    a.accounts.release(a.account, byAccount.tokens - a.reserved);
    tell(reply, tighter(byKey.decision, byAccount.decision));
    setPageBytes(req, bytesPaidFor(a.reserved, this.pageMaxBytes));
  }

  private async slot(req: FastifyRequest, reply: FastifyReply, a: Admission): Promise<void> {
    const release = await this.concurrency.acquire(a.accountId);
    if (!release) {
      this.metrics.rateLimited.inc({ reason: 'account_concurrency' });
      throw rateLimited(1);
    }
    // a client that left while waiting has no 'close' to come: give the slot back now
    if (req.raw.socket?.destroyed) release();
    else reply.raw.once('close', release);
  }

  /**
   * From onSend, before the body goes out: charges what the request cost beyond its first token
   * and frees the tokens it held. Undefined when there is nothing to wait for (a cost of one
   * token, or a request not admitted here).
   */
  settle(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> | undefined {
    const a = (req as AdmittedRequest)[ADMITTED];
    if (!a) return undefined;
    const bytes = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.length : 0;
    const cost = requestCost(bytes);
    reply.header('Request-Cost', cost);
    if (a.reserved > 0) return this.settleReserved(reply, a, cost - 1);
    if (cost <= 1) return undefined;
    return Promise.all([
      a.keys.charge(a.keyId, cost - 1),
      a.accounts.charge(a.account, cost - 1),
    ]).then(([byKey, byAccount]) => tell(reply, tighter(byKey, byAccount)));
  }

  /**
   * Pays what a request that held tokens spent beyond its first, and frees what it held; waited
   * for only when it spent any (the RateLimit-* headers then say what is left).
   */
  private settleReserved(
    reply: FastifyReply,
    a: Admission,
    spent: number,
  ): Promise<void> | undefined {
    const settled = Promise.all([
      a.keys.settle(a.keyId, spent, a.reserved),
      a.accounts.settle(a.account, spent, a.reserved),
    ]);
    if (spent <= 0) {
      void settled;
      return undefined;
    }
    return settled.then(([byKey, byAccount]) => {
      if (byKey && byAccount) tell(reply, tighter(byKey, byAccount));
    });
  }
}
