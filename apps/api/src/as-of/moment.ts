/** The point of a graph's history a read shows. */
export interface Moment {
  /** The event the read is as of; 0 while the graph has no event. */
  seq: number;
  /** `evt_…` of `seq`, or null while the graph has no event. */
  eventId: string | null;
  /** The instant `stale` is judged at (decisions.md: "stale is judged at the read's moment"). */
  at: number;
}
