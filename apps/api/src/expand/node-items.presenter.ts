import {
  nodeId,
  type MessageRecord,
  type SpawnRecord,
  type TaskItem,
  type WaitRecord,
} from '@graph-history/domain';

/** Item shapes of the `tasks`, `spawns`, `waits` and `messages` expansions (decisions.md). */

export const presentTask = (t: TaskItem) => ({
  object: 'task' as const,
  id: t.id,
  content: t.content,
  status: t.status,
  active_form: t.active_form,
  ...(t.blocked_by !== undefined ? { owner: t.owner ?? null, blocked_by: t.blocked_by } : {}),
  created: t.created,
  updated: t.updated,
});

export const presentSpawn = (graphId: number, s: SpawnRecord) => ({
  object: 'spawn' as const,
  spawn_call_id: s.spawnCallId,
  node_id: nodeId(graphId, s.childNo),
  agent_type: s.agentType,
  purpose: s.purpose,
  background: s.background,
  created: s.created,
});

export const presentWait = (graphId: number, w: WaitRecord) => ({
  object: 'wait' as const,
  on_id: nodeId(graphId, w.onNo),
  reason: w.reason,
  started: w.started,
  ended: w.ended,
});

/** `direction` is seen from `nodeNo`, the node the list belongs to. */
export const presentMessage = (graphId: number, nodeNo: number, m: MessageRecord) => ({
  object: 'message' as const,
  id: m.messageId,
  direction: m.fromNo === nodeNo ? ('sent' as const) : ('received' as const),
  from_id: nodeId(graphId, m.fromNo),
  to_id: nodeId(graphId, m.toNo),
  created: m.created,
  text: m.text,
});
