import { nodeNoOf } from '../ids';
import type { NodeRecord } from '../node';
import { fromStoredNodeRecord, type StoredNodeRecord } from '../node-record-version';
import type { PublicNode } from '../public/node.schema';

/**
 * What a version row holds of a node: its jsonb record (`rec`, rows written before migration
 * 0009), or its public JSON (storedNodeJson) with the two record fields the JSON lacks.
 */
export interface StoredNodeColumns {
  rec: StoredNodeRecord | null;
  json: string | null;
  sortKey: string | null;
  createdSeq: number | null;
}

/** The reducer's record of a version row, whichever way the row stores it. */
export function storedNodeRecord(s: StoredNodeColumns): NodeRecord {
  if (s.rec !== null) return fromStoredNodeRecord(s.rec);
  if (s.json === null || s.sortKey === null || s.createdSeq === null)
    throw new Error('A node version with neither its record nor its JSON and created_seq.');
  return nodeRecordFromJson(s.json, s.sortKey, s.createdSeq);
}

/**
 * The record a stored public JSON shows. Its nested objects are in jsonb's key order (see
 * storedNodeJson), as in a record read from jsonb, so presenting either gives the same bytes.
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
