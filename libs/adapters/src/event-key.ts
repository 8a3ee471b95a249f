import { createHash } from 'node:crypto';
import { LIMITS } from '@graph-history/domain';

/**
 * Joins the parts of an idempotency key with `:`. A key longer than the ingest limit keeps a
 * readable head and ends with a hash of the whole, so it stays unique and stable.
 */
export function eventKey(...parts: Array<string | number>): string {
  const key = parts.join(':');
  if (key.length <= LIMITS.key) return key;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 32);
  return `${key.slice(0, LIMITS.key - hash.length - 1)}#${hash}`;
}
