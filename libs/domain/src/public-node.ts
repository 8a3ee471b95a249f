import { graphPublicId, nodeId } from './ids';
import { NodeRecord } from './node';
import { PublicNode, PublicNodeFields } from './public/node.schema';

export type PublicNodeBody = Omit<PublicNodeFields, 'graph_id'>;

/** The public fields of a node except `graph_id`, which needs the graph's key. */
export function publicNodeBody(graphId: number, rec: NodeRecord): PublicNodeBody {
  const { graph_id: _g, ...body } = toPublicNode(graphId, rec, '');
  return body;
}

/** The read API's stored Node fields (everything but `object`, `as_of_event_id` and `stale`). */
export function toPublicNode(graphId: number, rec: NodeRecord, graphKey: string): PublicNodeFields {
  const {
    object: _o,
    as_of_event_id: _a,
    stale: _s,
    ...fields
  } = presentNode(graphId, graphKey, rec, '', false);
  return fields;
}

/** Working, but silent for longer than `staleAfterMs` at `moment`. */
export const isStale = (
  rec: Pick<NodeRecord, 'state' | 'lastEvent'>,
  moment: number,
  staleAfterMs: number,
): boolean => rec.state === 'working' && moment - rec.lastEvent > staleAfterMs;

/**
 * The read API's Node without expansions, built in one object literal in NodeSchema's field order
 * (JSON.stringify keeps it on the wire): the hot path of node reads, with no reordering copy.
 * `attention` and `task_counts` are in jsonb's key order (see compareJsonbKeys), the order they
 * have always been sent in (records were read back from jsonb), whatever the record's own.
 */
export function presentNode(
  graphId: number,
  graphKey: string,
  rec: NodeRecord,
  asOfEventId: string,
  stale: boolean,
): PublicNode {
  const ref = (no: number) => nodeId(graphId, no);
  const { attention: a, taskCounts: t, blocked: b } = rec;
  return {
    id: ref(rec.no),
    object: 'node',
    as_of_event_id: asOfEventId,
    graph_id: graphPublicId(graphKey),
    provider_ref: rec.ref,
    provider: rec.provider,
    kind: rec.kind,
    parent_id: rec.parentNo === null ? null : ref(rec.parentNo),
    root_id: ref(rec.rootNo),
    session_id: ref(rec.sessionNo),
    requested_by_id: rec.requestedByNo === null ? null : ref(rec.requestedByNo),
    depth: rec.depth,
    state: rec.state,
    stale,
    attention: a && { since: a.since, reason: a.reason, message: a.message },
    title: rec.title,
    summary: rec.summary,
    headline: rec.headline,
    purpose: rec.purpose,
    agent_type: rec.agentType,
    background: rec.background,
    link_method: rec.linkMethod,
    spawn_call_id: rec.spawnCallId,
    cwd: rec.cwd,
    created: rec.created,
    ended: rec.ended,
    last_event: rec.lastEvent,
    child_count: rec.childCount,
    descendant_count: rec.descendantCount,
    background_agent_count: rec.backgroundAgentCount,
    task_counts: {
      open: t.open,
      total: t.total,
      pending: t.pending,
      completed: t.completed,
      in_progress: t.in_progress,
    },
    blocked: b && {
      on_ids: b.onNos.map(ref),
      starting: b.starting,
      node_count: b.nodeCount,
      open_tasks: b.openTasks,
      cycle: b.cycle,
    },
    usage: rec.usage,
    descendant_usage: rec.descendantUsage,
  };
}
