import type { NodeState } from '@graph-history/domain';
import type { GraphRow } from '@graph-history/db';

/** The read API's Graph (read-api.md section 2), as rendered. */
export interface GraphObject {
  id: string;
  object: 'graph';
  as_of_event_id: string | null;
  source: GraphRow['source'];
  url: string;
  created: number;
  last_event: number | null;
  retention: {
    event_count: number;
    first_event_id: string | null;
    first_event_created: number | null;
    last_event_id: string | null;
    last_event_created: number | null;
  };
  counts: {
    nodes: number;
    sessions: number;
    agents: number;
    stale: number;
    blocked: number;
    by_state: Record<NodeState, number>;
  };
  /**
   * Present only while the graph stopped applying at a stored event that could not be applied:
   * events stored after it are kept but not readable until an operator resolves it.
   */
  apply_error?: { code: 'event_rejected'; message: string; since: number };
}
