import { nodeNoOf } from '../ids';
import type { NodeRecord } from '../node';
import type { PublicNode } from '../public/node.schema';

/**
 * The record a version row's public JSON (storedNodeJson) shows, with the two record fields the
 * JSON lacks (the row's `sort_key` and `created_seq`). Presenting it gives the JSON again.
 */
export function nodeRecordFromJson(json: string, sortKey: string, createdSeq: number): NodeRecord {
  const n = JSON.parse(json) as PublicNode;
  const b = n.blocked;
  return {
    no: nodeNoOf(n.id),
    ref: n.provider_ref,
    kind: n.kind,
    provider: n.provider,
    parentNo: n.parent_id === null ? null : nodeNoOf(n.parent_id),
    rootNo: nodeNoOf(n.root_id),
    sessionNo: nodeNoOf(n.session_id),
    requestedByNo: n.requested_by_id === null ? null : nodeNoOf(n.requested_by_id),
    depth: n.depth,
    sortKey,
    createdSeq,
    state: n.state,
    attention: n.attention,
    title: n.title,
    summary: n.summary,
    headline: n.headline,
    purpose: n.purpose,
    agentType: n.agent_type,
    background: n.background,
    linkMethod: n.link_method,
    spawnCallId: n.spawn_call_id,
    cwd: n.cwd,
    created: n.created,
    ended: n.ended,
    lastEvent: n.last_event,
    childCount: n.child_count,
    descendantCount: n.descendant_count,
    backgroundAgentCount: n.background_agent_count,
    taskCounts: n.task_counts,
    blocked: b && {
      onNos: b.on_ids.map(nodeNoOf),
      starting: b.starting,
      nodeCount: b.node_count,
      openTasks: b.open_tasks,
      cycle: b.cycle,
    },
    usage: n.usage ?? null,
    descendantUsage: n.descendant_usage ?? null,
  };
}
