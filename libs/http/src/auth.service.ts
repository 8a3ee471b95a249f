import { hashApiKey, isWellFormedApiKey, maskApiKey } from '@graph-history/domain';
import { ApiKeyRepository } from '@graph-history/db';
import { ApiError, apiKeyInvalid } from './api-error';
import { readCredentials } from './credentials';
import { Principal } from './principal';

const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
/** How long a key that authenticated counts as known to the brute-force guard. */
const KNOWN_TTL_MS = 24 * 3_600_000;
const KNOWN_MAX_ENTRIES = 100_000;

interface CacheEntry {
  principal: Principal | null;
  /** When the key was revoked (principal null), for the message. */
  revoked?: number;
  expires: number;
}

/**
 * Turns an Authorization header into a Principal. Look-ups are cached in process for 5 s, so a
 * revoked key stops working within 5 s on every replica; a header that authenticated is also kept
 * as it came for as long, so the next requests skip parsing and hashing it. Keys that
 * authenticated in the last 24 h are remembered (by hash) as known, so the brute-force guard can
 * let them through.
 */
export class AuthService {
  private readonly cache = new Map<string, CacheEntry>();
  /** Headers that authenticated, until their look-up's cache entry expires. */
  private readonly headers = new Map<string, CacheEntry & { principal: Principal }>();
  private readonly known = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /** The principal, or an `api_key_invalid` ApiError to throw. */
  async authenticate(authorization: string | string[] | undefined): Promise<Principal> {
    const recent = this.recent(authorization);
    if (recent) return recent;
    const creds = readCredentials(authorization);
    if (creds.kind === 'missing') {
      throw apiKeyInvalid(
        'No API key provided. Send it as `Authorization: Bearer <API_KEY>` or as the basic-auth user name.',
      );
    }
    if (creds.kind === 'malformed' && creds.unschemed) {
      throw apiKeyInvalid(
        `The Authorization header does not start with \`Bearer \`: send the key as \`Authorization: Bearer ${maskApiKey(creds.shown.split(' ').pop()!)}\` (or as the basic-auth user name).`,
      );
    }
    const key = creds.kind === 'key' ? creds.key : creds.shown;
    const found = creds.kind === 'key' && isWellFormedApiKey(key) ? await this.lookup(key) : null;
    if (found?.revoked !== undefined) throw revokedKey(key, found.revoked);
    if (!found?.principal) throw invalidKey(key);
    if (typeof authorization === 'string') {
      if (this.headers.size >= CACHE_MAX_ENTRIES) this.headers.clear();
      this.headers.set(authorization, { principal: found.principal, expires: found.expires });
    }
    return found.principal;
  }

  /** The principal of a header that authenticated within the cache's 5 s, without a look-up. */
  recent(authorization: string | string[] | undefined): Principal | undefined {
    if (typeof authorization !== 'string') return undefined;
    const hit = this.headers.get(authorization);
    return hit && hit.expires > this.now() ? hit.principal : undefined;
  }

  /** Whether the header tries to carry a key at all (well-formed or not). */
  carriesKey(authorization: string | string[] | undefined): boolean {
    return readCredentials(authorization).kind !== 'missing';
  }

  /** Whether the header carries a key that authenticated here within the last 24 h. */
  isKnown(authorization: string | string[] | undefined): boolean {
    const key = this.wellFormedKey(authorization);
    if (key === null) return false;
    const until = this.known.get(hashApiKey(key).toString('base64'));
    return until !== undefined && until > this.now();
  }

  private wellFormedKey(authorization: string | string[] | undefined): string | null {
    const creds = readCredentials(authorization);
    return creds.kind === 'key' && isWellFormedApiKey(creds.key) ? creds.key : null;
  }

  private async lookup(key: string): Promise<CacheEntry> {
    const hash = hashApiKey(key);
    const cacheKey = hash.toString('base64');
    const now = this.now();
    const hit = this.cache.get(cacheKey);
    if (hit && hit.expires > now) return hit;
    const row = await this.keys.findByHash(hash);
    const principal: Principal | null =
      row && row.revoked === null
        ? { keyId: row.keyId, accountId: row.accountId, kind: row.kind, graphKeys: row.graphKeys }
        : null;
    const entry: CacheEntry = { principal, expires: now + CACHE_TTL_MS };
    if (row?.revoked != null) entry.revoked = row.revoked;
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(cacheKey, entry);
    if (principal) {
      if (this.known.size >= KNOWN_MAX_ENTRIES) this.known.clear();
      this.known.set(cacheKey, now + KNOWN_TTL_MS);
    }
    return entry;
  }
}

function revokedKey(key: string, revoked: number): ApiError {
  return apiKeyInvalid(
    `The API key ${maskApiKey(key)} was revoked (${new Date(revoked).toISOString()}). Use another key of the account, or create a new one.`,
  );
}

function invalidKey(key: string): ApiError {
  return apiKeyInvalid(
    `Invalid API key provided: ${maskApiKey(key)}. Check the key, or create a new one.`,
  );
}
