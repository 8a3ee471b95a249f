import { BatchValidation, RefView, validateBatch } from '@graph-history/domain';
import type { RefStatus } from '@graph-history/db';

/** Stored status of each ref looked up so far; null: looked up, does not exist. */
export type KnownRefs = Map<string, RefStatus | null>;

/**
 * Validates a batch with the domain's `validateBatch` against the graph's stored refs overlaid
 * with the batch itself. The view is synchronous, so refs are fetched beforehand (`known`, filled
 * from the refs the batch names); should validation ask for one that was not fetched, it is
 * fetched with `fetchRefs` and the batch validated again (this ends: every round fetches at least one
 * new ref of a finite batch).
 */
export async function validateWithStoredRefs(
  raws: unknown[],
  known: KnownRefs,
  fetchRefs: (refs: string[]) => Promise<Map<string, RefStatus>>,
  now: number,
): Promise<BatchValidation> {
  for (;;) {
    const unfetched = new Set<string>();
    const view: RefView = {
      get: (ref) => {
        const status = known.get(ref);
        if (status === undefined) unfetched.add(ref);
        return status ?? undefined;
      },
    };
    const result = validateBatch(view, raws, now);
    if (unfetched.size === 0) return result;
    const found = await fetchRefs([...unfetched]);
    for (const ref of unfetched) known.set(ref, found.get(ref) ?? null);
  }
}
