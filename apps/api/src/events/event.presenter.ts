import {
  presentEvent as presentPublicEvent,
  type PublicEvent,
  type PublicNode,
} from '@graph-history/domain';
import type { EventRow, GraphRow } from '@graph-history/db';

/** The read API's Event; `node` is the expanded `data.node`, when asked for. */
export const presentEvent = (
  graph: Pick<GraphRow, 'graphId' | 'graphKey'>,
  e: EventRow,
  node?: PublicNode | null,
): PublicEvent => presentPublicEvent(graph.graphId, graph.graphKey, e, node);
