import type { EndState, LinkMethod } from '@graph-history/domain';
import { deleteOwn, getOwn, setOwn } from '../own-record';
import type { Emitter } from './emitter';
import { forgetOpenCalls } from './open-calls';
import type { Fact, ToolOp, ToolResultFact } from './line';
import type { SpawnMemo } from './state';
import { rememberTeammate } from './teams';
import { closeWait, openWait } from './waits';

/** Called when an agent ref is tied to its spawn, so lines held for it can be replayed. */
export type OnLinked = (agentId: string | undefined, ref: string) => void;

type SpawnOp = Extract<ToolOp, { op: 'spawn' }>;

export function recordSpawn(em: Emitter, parent: string, callId: string, op: SpawnOp): void {
  if (!em.live(parent) || getOwn(em.session.spawns, callId)) return;
  setOwn(em.session.spawns, callId, {
    parent,
    agentType: op.agentType,
    purpose: op.purpose,
    promptKey: op.promptKey,
    background: op.background,
    ts: em.ts,
    version: em.line.version ?? em.session.version,
    ...(em.line.cwd ? { cwd: em.line.cwd } : {}),
    ...(op.name ? { name: op.name } : {}),
  });
}

/**
 * Creates the agent of a spawn call. Its ref is the session ref + `/` + the agent id (2.x) or,
 * when the transcript has none (1.0.x), + the spawn call id.
 */
export function linkSpawn(
  em: Emitter,
  callId: string,
  memo: SpawnMemo,
  agentId: string | undefined,
  method: LinkMethod,
  onLinked: OnLinked,
): string | undefined {
  if (memo.agentRef) return memo.agentRef;
  // A teammate may already be a node (from its team's config, read before the spawn's result).
  const teammate = memo.name ? getOwn(em.session.teammates ?? {}, memo.name) : undefined;
  const ref = teammate && em.live(teammate) ? teammate : `${em.sessionId}/${agentId ?? callId}`;
  const payload = {
    parent: memo.parent,
    agent_type: memo.agentType,
    purpose: memo.purpose,
    background: memo.background,
    ...(method !== 'explicit' ? { spawn_call_id: callId } : {}),
    link_method: method,
    ...(memo.cwd ? { cwd: memo.cwd } : {}),
  };
  if (!em.spawnAgent(ref, payload, memo.ts, memo.version) && !em.node(ref)) return undefined;
  memo.agentRef = ref;
  if (memo.name) rememberTeammate(em, memo.name, ref);
  if (!memo.background) openWait(em, memo.parent, ref, 'spawn');
  if (agentId) setOwn(em.session.agents, agentId, ref);
  onLinked(agentId, ref);
  return ref;
}

/** Finds the unresolved spawn call whose prompt a sub-agent's first message repeats. */
export function spawnByPrompt(em: Emitter, promptKey: string): [string, SpawnMemo] | undefined {
  return Object.entries(em.session.spawns).find(
    ([, memo]) => !memo.agentRef && memo.promptKey === promptKey,
  );
}

export function endAgent(
  em: Emitter,
  ref: string,
  state: EndState,
  summary: string | undefined,
): void {
  if (em.send('ended', ref, summary === undefined ? { state } : { state, summary }))
    forgetOpenCalls(em.session, ref, false);
}

/** The result of a spawn call: launch of a background agent, or the end of a foreground one. */
export function spawnResult(
  em: Emitter,
  fact: ToolResultFact,
  memo: SpawnMemo,
  onLinked: OnLinked,
): void {
  const callId = fact.toolUseId;
  if (fact.asyncLaunched) {
    const wasForeground = memo.agentRef !== undefined && !memo.background;
    memo.background = true;
    const ref = linkSpawn(em, callId, memo, fact.agentId, 'spawn_call_id', onLinked);
    if (ref && wasForeground) closeWait(em, memo.parent, ref);
    deleteOwn(em.session.spawns, callId);
    return;
  }
  deleteOwn(em.session.spawns, callId);
  if (fact.rejected || (fact.isError && !memo.agentRef)) return;
  const ref = linkSpawn(em, callId, memo, fact.agentId, 'spawn_call_id', onLinked);
  if (!ref) return;
  const state: EndState = !fact.isError ? 'completed' : fact.interrupted ? 'canceled' : 'failed';
  closeWait(em, memo.parent, ref);
  endAgent(em, ref, state, fact.text);
}

const NOTIFIED_STATES: Record<string, EndState> = {
  completed: 'completed',
  failed: 'failed',
  error: 'failed',
  killed: 'canceled',
  stopped: 'canceled',
  canceled: 'canceled',
  cancelled: 'canceled',
};

/** A background agent's completion notice. Notices about shell tasks name no agent and are skipped. */
export function notifiedEnd(em: Emitter, fact: Extract<Fact, { kind: 'notification' }>): void {
  const ref = getOwn(em.session.agents, fact.taskId);
  const state = getOwn(NOTIFIED_STATES, fact.status.toLowerCase());
  if (ref && state) endAgent(em, ref, state, fact.summary);
}
