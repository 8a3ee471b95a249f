import { createHash, randomBytes } from 'node:crypto';

export type KeyKind = 'secret' | 'restricted';

const PREFIX: Record<KeyKind, string> = { secret: 'sk_live_', restricted: 'rk_live_' };
const KEY_PATTERN = /^(sk|rk)_live_[A-Za-z0-9]{32}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function generateApiKey(kind: KeyKind): string {
  const bytes = randomBytes(32);
  let body = '';
  for (const b of bytes) body += ALPHABET[b % ALPHABET.length];
  return PREFIX[kind] + body;
}

/** Keys are 190 bits of randomness, so a plain SHA-256 is a safe one-way index. */
export const hashApiKey = (key: string): Buffer =>
  createHash('sha256').update(key, 'utf8').digest();

export const isWellFormedApiKey = (key: string): boolean => KEY_PATTERN.test(key);

export const keyKind = (key: string): KeyKind | null =>
  key.startsWith('sk_live_') ? 'secret' : key.startsWith('rk_live_') ? 'restricted' : null;

/** `sk_live_****a1b2`; for anything not shaped like a key, only its last 4 characters. */
export function maskApiKey(key: string): string {
  const safe = key.replace(/[^\x21-\x7e]/g, '?');
  const last4 = safe.length > 8 ? safe.slice(-4) : '';
  const prefix = /^(sk|rk)_live_/.test(safe) ? safe.slice(0, 8) : '';
  return `${prefix}****${last4}`;
}
