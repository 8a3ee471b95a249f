import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { ViewerSessionRepository } from '@graph-history/db';
import { CONFIG, Principal } from '@graph-history/http';

const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;

interface CacheEntry {
  principal: Principal | null;
  until: number;
}

const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * Server-side viewer sessions. A sign-in stores the hash of a random token for the key that
 * signed in; the token travels only in the cookie. Look-ups are cached for 5 s in process (as keys
 * are), so a sign-out on another replica or a revoked key ends the session within 5 s.
 */
@Injectable()
export class ViewerSessionService {
  private readonly cache = new Map<string, CacheEntry>();
  readonly ttlMs: number;

  constructor(
    private readonly sessions: ViewerSessionRepository,
    @Inject(CONFIG) config: Config,
  ) {
    this.ttlMs = config.VIEWER_SESSION_TTL_MS;
  }

  /** Opens a session for an authenticated key; returns the token for the cookie. */
  async open(principal: Principal, now = Date.now()): Promise<string> {
    await this.sessions.deleteExpired(now);
    const token = randomBytes(32).toString('base64url');
    await this.sessions.insert({
      tokenHash: hashToken(token),
      keyId: principal.keyId,
      created: now,
      expires: now + this.ttlMs,
    });
    return token;
  }

  /** The principal of a live session, or null. */
  async principal(token: string, now = Date.now()): Promise<Principal | null> {
    const hash = hashToken(token);
    const cacheKey = hash.toString('base64');
    const hit = this.cache.get(cacheKey);
    if (hit && hit.until > now) return hit.principal;
    const row = await this.sessions.findActive(hash, now);
    const principal: Principal | null = row
      ? {
          keyId: row.keyId,
          accountId: row.accountId,
          kind: row.kind,
          graphKeys: row.graphKeys,
          viewerSession: hash.toString('base64url').slice(0, 22),
        }
      : null;
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(cacheKey, {
      principal,
      until: Math.min(now + CACHE_TTL_MS, row?.expires ?? Infinity),
    });
    return principal;
  }

  async close(token: string): Promise<void> {
    const hash = hashToken(token);
    this.cache.delete(hash.toString('base64'));
    await this.sessions.delete(hash);
  }
}
