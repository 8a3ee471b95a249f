import { isObject, str } from './rollout-line';
import type { ThreadMeta } from './state';

type Json = Record<string, unknown>;

/** `source.subagent.thread_spawn` of a SessionMeta (SubAgentSource::ThreadSpawn), if any. */
function threadSpawn(payload: Json): Json | undefined {
  const source = payload['source'];
  if (!isObject(source)) return undefined;
  const subagent = source['subagent'];
  if (!isObject(subagent)) return undefined;
  const spawn = subagent['thread_spawn'];
  return isObject(spawn) ? spawn : undefined;
}

/** What a thread's own `session_meta` line says about it. */
export function readMeta(payload: Json, ts: number): ThreadMeta {
  const spawn = threadSpawn(payload);
  const parentId = str(spawn?.['parent_thread_id']) ?? str(payload['parent_thread_id']);
  const meta: ThreadMeta = { ts };
  const cwd = str(payload['cwd']);
  if (cwd !== undefined) meta.cwd = cwd;
  if (parentId !== undefined) meta.parentId = parentId.toLowerCase();
  const nickname = str(spawn?.['agent_nickname']) ?? str(payload['agent_nickname']);
  if (nickname !== undefined) meta.nickname = nickname;
  const role =
    str(spawn?.['agent_role']) ?? str(spawn?.['agent_type']) ?? str(payload['agent_role']);
  if (role !== undefined) meta.role = role;
  const call = str(spawn?.['spawn_call_id']);
  if (call !== undefined) meta.spawnCallId = call;
  const ownFrom = payload['subagent_history_start_ordinal'];
  if (typeof ownFrom === 'number' && Number.isInteger(ownFrom)) meta.ownFrom = ownFrom;
  return meta;
}

/** True when the rollout starts with a copy of another thread's history (a fork). */
export const isFork = (payload: Json): boolean => str(payload['forked_from_id']) !== undefined;
