import { LIMITS } from '@graph-history/domain';
import { getOwn, setOwn, deleteOwn } from '../own-record';
import { cleanText, firstLine } from '../text';
import { planTasks } from '../todo-list';
import type { Emitter } from './emitter';
import { callArguments, isObject, outputText, str } from './rollout-line';
import type { Run } from './run';
import type { ThreadMemo } from './state';

type Json = Record<string, unknown>;

const SPAWN_TOOLS = new Set(['spawn_agent']);
const WAIT_TOOLS = new Set(['wait_agent', 'wait']);

/** The task text of a `spawn_agent` call: `message`, else the text of its `items`. */
function spawnPurpose(args: Json): string | undefined {
  const message = str(args['message']) ?? str(args['prompt']) ?? str(args['task']);
  if (message !== undefined) return firstLine(message, 2_000);
  const items = args['items'];
  if (!Array.isArray(items)) return undefined;
  const text = items.find((i): i is Json => isObject(i) && typeof i['text'] === 'string');
  return text ? firstLine(text['text'] as string, 2_000) : undefined;
}

/** The thread ids a `wait_agent` call names. */
function waitedIds(args: Json): string[] {
  for (const field of ['ids', 'agent_ids', 'targets', 'agents']) {
    const v = args[field];
    if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  }
  const one = str(args['id']) ?? str(args['agent_id']) ?? str(args['target']);
  return one === undefined ? [] : [one];
}

/** The thread id a spawn call's output names (`{"agent_id": …}`). */
function spawnedId(output: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(output);
    if (!isObject(parsed)) return undefined;
    return (
      str(parsed['agent_id']) ??
      str(parsed['thread_id']) ??
      str(parsed['id'])
    )?.toLowerCase();
  } catch {
    return undefined;
  }
}

function functionCall(run: Run, memo: ThreadMemo, p: Json, ts: number, emit: Emitter): void {
  const name = str(p['name']) ?? 'tool';
  const callId = str(p['call_id']);
  const args = callArguments(p);
  if (SPAWN_TOOLS.has(name) && callId !== undefined) {
    const purpose = spawnPurpose(args);
    const agentType = str(args['agent_type']) ?? str(args['agent_role']);
    setOwn(memo.spawns, callId, {
      ts,
      ...(purpose !== undefined ? { purpose } : {}),
      ...(agentType !== undefined ? { agentType } : {}),
    });
  }
  if (name === 'update_plan' && Array.isArray(args['plan'])) {
    emit.send('tasks.updated', memo, { tasks: planTasks(args) });
    return;
  }
  if (WAIT_TOOLS.has(name) && callId !== undefined) {
    const on = waitedIds(args)
      .map((id) => getOwn(run.state.threads, id.toLowerCase()))
      .filter((t): t is ThreadMemo => t?.ref !== undefined && t !== memo && !t.ended)
      .map((t) => t.ref!)
      .slice(0, LIMITS.refsPerWait);
    if (on.length > 0 && emit.send('wait.started', memo, { on, reason: 'wait_agent' })) {
      setOwn(memo.waits, callId, on);
      return;
    }
  }
  emit.activity(memo, cleanText(name, 120));
}

function functionOutput(memo: ThreadMemo, p: Json, emit: Emitter): void {
  const callId = str(p['call_id']);
  if (callId === undefined) return;
  const spawn = getOwn(memo.spawns, callId);
  if (spawn && spawn.childId === undefined) {
    const child = spawnedId(outputText(p));
    if (child !== undefined) spawn.childId = child;
  }
  const waited = getOwn(memo.waits, callId);
  if (waited) {
    deleteOwn(memo.waits, callId);
    emit.send('wait.ended', memo, { on: waited });
  }
}

/** Applies a `response_item` line of a created node. */
export function routeResponseItem(run: Run, memo: ThreadMemo, p: Json, emit: Emitter): void {
  switch (p['type']) {
    case 'function_call':
      emit.clearAttention(memo);
      functionCall(run, memo, p, emit.ts, emit);
      return;
    case 'function_call_output':
    case 'custom_tool_call_output':
      emit.clearAttention(memo);
      functionOutput(memo, p, emit);
      return;
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'web_search_call':
      emit.clearAttention(memo);
      emit.activity(memo, cleanText(str(p['name']) ?? String(p['type']), 120));
      return;
    default:
      return;
  }
}
