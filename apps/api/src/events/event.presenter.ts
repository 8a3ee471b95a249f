import {
  eventId,
  graphPublicId,
  NODE_FIELDS,
  nodeId,
  type ChangeEntry,
  type PublicEvent,
  type PublicNode,
} from '@graph-history/domain';
import type { EventRow, GraphRow } from '@graph-history/db';

const rank = new Map<string, number>(NODE_FIELDS.map((f, i) => [f, i]));
const byNodeFieldOrder = (a: string, b: string) =>
  (rank.get(a) ?? 999) - (rank.get(b) ?? 999) || (a < b ? -1 : 1);

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
  graph: Pick<GraphRow, 'graphId' | 'graphKey'>,
  e: EventRow,
  node?: PublicNode | null,
): PublicEvent {
  return {
    id: eventId(graph.graphId, e.seq),
    object: 'event',
    type: e.type,
    created: e.created,
    graph_id: graphPublicId(graph.graphKey),
    node_id: nodeId(graph.graphId, e.nodeNo),
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
