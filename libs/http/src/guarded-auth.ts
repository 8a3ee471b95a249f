import { ApiError, rateLimited } from './api-error';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { AuthService } from './auth.service';
import { Principal } from './principal';

/**
 * Authentication behind the brute-force guard. Every invalid key counts against the client's
 * address (a request without any key does not: browsers send one first). A blocked address gets
 * 429 for keys it has not proven, without a look-up, but a key that authenticated in the last 24 h
 * is still looked up and let through, so a guesser sharing an address (a balancer, a NAT) cannot
 * lock out the clients behind it.
 */
export class GuardedAuth {
  constructor(
    private readonly auth: AuthService,
    private readonly failures: AuthFailureLimiter,
  ) {}

  /** The principal of a header that authenticated within seconds (always let through), if any. */
  recent(authorization: string | string[] | undefined): Principal | undefined {
    return this.auth.recent(authorization);
  }

  async authenticate(
    authorization: string | string[] | undefined,
    address: string,
  ): Promise<Principal> {
    // authenticated within seconds, so known: let through like any known key
    const recent = this.auth.recent(authorization);
    if (recent) return recent;
    const sent = this.auth.carriesKey(authorization);
    const blocked = sent ? this.failures.blockedFor(address) : 0;
    if (blocked > 0 && !this.auth.isKnown(authorization)) throw rateLimited(blocked);
    try {
      return await this.auth.authenticate(authorization);
    } catch (err) {
      if (sent && err instanceof ApiError && err.code === 'api_key_invalid') {
        const blockedFor = await this.failures.recordFailure(address);
        if (blockedFor > 0) throw rateLimited(blockedFor);
      }
      throw err;
    }
  }
}
