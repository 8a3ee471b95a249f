/** decisions.md "Retention": a graph holds at most 2,000 events; a cut leaves the newest 1,000. */
export const RETENTION = { maxEvents: 2_000, keepEvents: 1_000 } as const;

/**
 * The oldest retained seq once events up to `appliedSeq` are applied: unchanged while at most
 * 2,000 events are held, else moved so that exactly the newest 1,000 remain. `firstSeq` is null
 * before the graph's first event.
 */
export function retainedFirstSeq(firstSeq: number | null, appliedSeq: number): number {
  const first = firstSeq ?? 1;
  return appliedSeq - first + 1 > RETENTION.maxEvents
    ? appliedSeq - RETENTION.keepEvents + 1
    : first;
}
