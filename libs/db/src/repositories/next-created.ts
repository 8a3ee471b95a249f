/** A page row's facts that its next event's `created` is found from. */
export interface PageRowTimes {
  seq: number;
  created: number;
  /** The `created` of the event right after the page's range (the same on every row). */
  after_created: number | null;
}

/** Each row's next event's `created`: on the page, or past its top (see EventWithNode). */
export function nextCreatedOf(rows: PageRowTimes[], toSeq: number) {
  const createdAt = new Map(rows.map((r) => [r.seq, r.created]));
  return (r: { seq: number }) =>
    createdAt.get(r.seq + 1) ?? (r.seq === toSeq ? rows[0]!.after_created : null);
}
