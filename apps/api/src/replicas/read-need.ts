import { decodeId } from '@graph-history/domain';

/**
 * What a read needs of the database it runs on, from its URL: nothing particular (a read of now,
 * which may be as old as the replica's lag), a graph applied through an event (`as_of` or a cursor
 * that is an event id), a graph applied past a time (`as_of` in ms), or the primary (a cursor
 * whose object a lagging replica may not hold yet).
 */
export type ReadNeed =
  | { kind: 'any' }
  | { kind: 'primary' }
  | { kind: 'event'; graphId: number; seq: number }
  | { kind: 'time'; graphKey: string; time: number };

const GRAPHS_PATH = /^\/api\/v1\/graphs(?:\/([^/]+))?(?:\/|$)/;

export function readNeed(url: string): ReadNeed {
  const u = new URL(url, 'http://api');
  const path = GRAPHS_PATH.exec(u.pathname);
  if (!path) return { kind: 'any' };
  const ids = ['as_of', 'starting_after', 'ending_before'].flatMap((p) => u.searchParams.getAll(p));
  if (ids.length === 0) return { kind: 'any' };
  const graphKey = path[1] ? safeDecode(path[1]).replace(/^gph_/, '') : null;
  if (!graphKey) return { kind: 'primary' }; // a cursor of the graph list
  let need: ReadNeed = { kind: 'any' };
  for (const id of ids) {
    if (/^\d+$/.test(id)) {
      if (need.kind === 'any') need = { kind: 'time', graphKey, time: Number(id) };
      continue;
    }
    const event = id.startsWith('evt_') ? decodeId('evt', id) : null;
    if (!event) return { kind: 'primary' };
    if (need.kind !== 'event' || event.n > need.seq)
      need = { kind: 'event', graphId: event.graphId, seq: event.n };
  }
  return need;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
