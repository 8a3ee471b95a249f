import { LIMITS } from '@graph-history/domain';

/** The model of a usage report whose record names none. */
export const UNKNOWN_MODEL = 'unknown';

/** A token count a provider wrote, or 0 when it is absent or not a count; at most ingest's limit. */
export const tokenCount = (v: unknown): number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? Math.min(v, LIMITS.tokens) : 0;
