import { createHash } from 'node:crypto';

/** Refused credentials remembered at most (the map starts over when full). */
const KEPT = 10_000;

interface Refusal {
  until: number;
  reason: string;
}

/**
 * The credentials (the Authorization header, hashed) whose account was refused by the ingest
 * limit lately, and until when: a request bearing one before then is refused at once, before its
 * body is read or parsed, its key looked up or Redis asked, so that a client sending past its
 * limit costs little. Filled only from requests that authenticated with that very header.
 */
export class RecentRefusals {
  private readonly byCredential = new Map<string, Refusal>();

  remember(authorization: string | undefined, until: number, reason: string): void {
    if (!authorization) return;
    if (this.byCredential.size >= KEPT) this.byCredential.clear();
    this.byCredential.set(digest(authorization), { until, reason });
  }

  /** The refusal still running for these credentials, with its ms left; else undefined. */
  refusal(
    authorization: string | undefined,
    now = Date.now(),
  ): { msLeft: number; reason: string } | undefined {
    if (!authorization) return undefined;
    const key = digest(authorization);
    const r = this.byCredential.get(key);
    if (!r) return undefined;
    if (r.until <= now) {
      this.byCredential.delete(key);
      return undefined;
    }
    return { msLeft: r.until - now, reason: r.reason };
  }
}

const digest = (authorization: string): string =>
  createHash('sha256').update(authorization).digest('base64');
