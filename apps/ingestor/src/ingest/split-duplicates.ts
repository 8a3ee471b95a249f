import { rawKey } from './named-refs';

export interface FreshEvent {
  /** Position in the request's `events`. */
  index: number;
  raw: unknown;
}

/**
 * Separates the events to validate and store from duplicates: events whose key was stored before,
 * or appeared earlier in the same batch. Duplicates are no-ops and are not validated.
 */
export function splitDuplicates(
  raws: unknown[],
  storedKeys: ReadonlySet<string>,
): { fresh: FreshEvent[]; duplicates: number } {
  const seen = new Set<string>();
  const fresh: FreshEvent[] = [];
  raws.forEach((raw, index) => {
    const key = rawKey(raw);
    if (key !== undefined && (storedKeys.has(key) || seen.has(key))) return;
    if (key !== undefined) seen.add(key);
    fresh.push({ index, raw });
  });
  return { fresh, duplicates: raws.length - fresh.length };
}
