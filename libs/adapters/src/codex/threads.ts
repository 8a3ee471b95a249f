import { LIMITS, type LinkMethod, type PayloadOf } from '@graph-history/domain';
import { getOwn } from '../own-record';
import { cleanText } from '../text';
import { pushCreation } from '../node-emitter';
import { CODEX_SOURCE } from './emitter';
import type { RolloutLine } from './rollout-line';
import type { Run } from './run';
import type { SpawnCall, ThreadMemo, ThreadMeta } from './state';

export type RouteLine = (run: Run, memo: ThreadMemo, line: RolloutLine) => void;

const PURPOSE_MAX = 2_000;

/** The parent's spawn call that made this thread, and how sure the link is. */
function spawnLink(
  parent: ThreadMemo,
  id: string,
  meta: ThreadMeta,
): { callId?: string; call?: SpawnCall; link: LinkMethod } {
  const calls = Object.entries(parent.spawns);
  if (meta.spawnCallId !== undefined) {
    return {
      callId: meta.spawnCallId,
      call: getOwn(parent.spawns, meta.spawnCallId),
      link: 'spawn_call_id',
    };
  }
  const named = calls.find(([, c]) => c.childId === id);
  if (named) return { callId: named[0], call: named[1], link: 'spawn_call_id' };
  // The call's output (which names the child) is written after the child's first line.
  const open = calls
    .filter(([, c]) => c.childId === undefined && c.ts <= meta.ts)
    .sort((a, b) => a[1].ts - b[1].ts);
  const pick =
    open.find(([, c]) => meta.role !== undefined && c.agentType === meta.role) ?? open[0];
  return pick ? { callId: pick[0], call: pick[1], link: 'inferred' } : { link: 'explicit' };
}

/** The parent itself, or its nearest live ancestor that is above the deepest level ingest allows. */
function roomyAncestor(run: Run, parent: ThreadMemo): ThreadMemo | undefined {
  for (let at: ThreadMemo | undefined = parent; at?.ref !== undefined;) {
    if (!at.ended && (at.depth ?? 0) < LIMITS.treeDepth) return at;
    const up: string | undefined = at.meta?.parentId;
    at = up === undefined ? undefined : getOwn(run.state.threads, up);
  }
  return undefined;
}

function agentPayload(
  placed: ThreadMemo,
  parent: ThreadMemo,
  id: string,
  meta: ThreadMeta,
): PayloadOf<'agent.spawned'> {
  const { callId, call, link } = spawnLink(parent, id, meta);
  if (call) call.childId = id;
  const purpose = call?.purpose ?? meta.nickname ?? 'Codex sub-agent';
  return {
    parent: placed.ref!,
    agent_type: cleanText(meta.role ?? call?.agentType ?? 'default', LIMITS.shortText),
    purpose: cleanText(purpose, PURPOSE_MAX),
    background: true,
    link_method: placed === parent ? link : 'inferred',
    ...(callId !== undefined ? { spawn_call_id: cleanText(callId, LIMITS.shortText) } : {}),
    ...(meta.cwd !== undefined ? { cwd: cleanText(meta.cwd, LIMITS.text) } : {}),
  };
}

const created = (memo: ThreadMemo): ThreadMemo & { ref: string } =>
  memo as ThreadMemo & { ref: string };

/**
 * Creates the node of thread `id` once it can be: a session as soon as its `session_meta` is read,
 * a sub-agent once its parent thread's node exists (and a fork's copied history is past). Then it
 * applies the lines the thread held meanwhile, and creates its children that waited for it.
 */
export function createWhenReady(run: Run, id: string, route: RouteLine): void {
  const memo = getOwn(run.state.threads, id);
  const meta = memo?.meta;
  if (!memo || !meta || memo.ref !== undefined || memo.replay === 'on') return;
  if (meta.parentId === undefined) {
    Object.assign(memo, { ref: id, sessionRef: id, depth: 0 });
    const payload = meta.cwd !== undefined ? { cwd: cleanText(meta.cwd, LIMITS.text) } : {};
    pushCreation(
      CODEX_SOURCE,
      run.out,
      created(memo),
      { type: 'session.started', payload },
      meta.ts,
    );
  } else {
    const parent = getOwn(run.state.threads, meta.parentId);
    const placed = parent && roomyAncestor(run, parent);
    if (!parent || !placed) return;
    const payload = agentPayload(placed, parent, id, meta);
    const ref = `${placed.sessionRef}/${id}`;
    Object.assign(memo, { ref, sessionRef: placed.sessionRef, depth: (placed.depth ?? 0) + 1 });
    pushCreation(CODEX_SOURCE, run.out, created(memo), { type: 'agent.spawned', payload }, meta.ts);
  }
  const held = memo.held;
  memo.held = [];
  for (const line of held) route(run, memo, line);
  for (const [childId, child] of Object.entries(run.state.threads)) {
    if (child.meta?.parentId === id && child.ref === undefined)
      createWhenReady(run, childId, route);
  }
}
