import { decodeId, encodeId } from '@graph-history/domain';

/** Ids of neighbouring events of the same graph, to build trimmed or future event ids. */
const shift = (id: string, by: number): string => {
  const d = decodeId('evt', id);
  if (!d) throw new Error(`not an event id: ${id}`);
  return encodeId('evt', d.graphId, d.n + by);
};

export const previousEventId = (id: string): string => shift(id, -1);
export const nextEventId = (id: string): string => shift(id, 1);
