import type { ChangeEntry, StoredEvent } from './event';
import { eventId, graphPublicId, nodeId } from './ids';
import { NODE_FIELDS } from './public/node.schema';
import type { PublicEvent } from './public/event.schema';
import type { PublicNode } from './public/node.schema';

/** The fields of a stored event the read API's Event shows. */
export type ListedEvent = Pick<
  StoredEvent,
  'seq' | 'type' | 'created' | 'nodeNo' | 'source' | 'payload' | 'changes'
>;

const rank = new Map<string, number>(NODE_FIELDS.map((f, i) => [f, i]));
const byNodeFieldOrder = (a: string, b: string) =>
  (rank.get(a) ?? 999) - (rank.get(b) ?? 999) || (a < b ? -1 : 1);

/** Whether a change lists its fields in the Node's field order (the reducer's changes do). */
export function inNodeFieldOrder(fields: ChangeEntry['fields']): boolean {
  let last = -1;
  for (const f in fields) {
    const r = rank.get(f);
    if (r === undefined || r <= last) return false;
    last = r;
  }
  return true;
}

/** Change entries in the documented key order (jsonb storage does not keep it). */
const presentChanges = (changes: ChangeEntry[]) =>
  changes.map((c) => ({
    node_id: c.node_id,
    created: c.created,
    fields: Object.fromEntries(
      Object.keys(c.fields)
        .sort(byNodeFieldOrder)
        .map((f) => [f, { from: c.fields[f]!.from, to: c.fields[f]!.to }]),
    ),
  }));

/** The read API's Event; `node` is the expanded `data.node`, when asked for. */
export function presentEvent(
  graphId: number,
  graphKey: string,
  e: ListedEvent,
  node?: PublicNode | null,
): PublicEvent {
  return {
    id: eventId(graphId, e.seq),
    object: 'event',
    type: e.type,
    created: e.created,
    graph_id: graphPublicId(graphKey),
    node_id: nodeId(graphId, e.nodeNo),
    source: {
      provider: e.source.provider,
      provider_version: e.source.provider_version,
      adapter: e.source.adapter,
    },
    payload: e.payload,
    changes: presentChanges(e.changes),
    ...(node === undefined ? {} : { data: { node } }),
  };
}
