import { getOwn, setOwn } from '../own-record';
import type { Emitter } from './emitter';
import type { FileRole } from './files';
import type { OnLinked } from './spawns';
import { linkSpawn } from './spawns';
import type { AgentMeta, ClaudeCodeState } from './state';
import { TEXT_MAX } from './tool-input';
import { cleanText } from '../text';

type Obj = Record<string, unknown>;
const str = (v: unknown, max = 200): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? cleanText(v.trim(), max) : undefined;

/** Stores what an `agent-<id>.meta.json` says; returns a problem when it is not usable JSON. */
export function readAgentMeta(
  state: ClaudeCodeState,
  role: Extract<FileRole, { role: 'meta' }>,
  text: string,
): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return `invalid JSON (${(err as Error).message.slice(0, 120)})`;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return 'meta file is not a JSON object';
  const m = raw as Obj;
  const meta: AgentMeta = {};
  const set = <K extends keyof AgentMeta>(k: K, v: AgentMeta[K] | undefined) => {
    if (v !== undefined) meta[k] = v;
  };
  set('agentType', str(m['agentType']));
  set('description', str(m['description'], TEXT_MAX) ?? str(m['label'], TEXT_MAX));
  set('toolUseId', str(m['toolUseId']));
  set('parentAgentId', str(m['parentAgentId']));
  set('name', str(m['name']));
  if (typeof m['spawnDepth'] === 'number' && Number.isInteger(m['spawnDepth']))
    meta.spawnDepth = m['spawnDepth'];
  set('workflow', role.workflow);
  state.metas ??= {};
  setOwn(state.metas, `${role.sessionId}/${role.agentId}`, meta);
  return undefined;
}

/**
 * Ties a sub-agent file to its node using its meta file: by the spawn call it names, by its
 * teammate name, or, when the spawn call is not readable yet (an agent's own file is flushed
 * late), directly under the parent agent it names, so nested agents sit at the right depth.
 */
export function agentFromMeta(
  state: ClaudeCodeState,
  em: Emitter,
  agentId: string,
  onLinked: OnLinked,
): string | undefined {
  const meta = getOwn(state.metas ?? {}, `${em.sessionId}/${agentId}`);
  if (!meta) return undefined;
  const spawn = meta.toolUseId ? getOwn(em.session.spawns, meta.toolUseId) : undefined;
  if (spawn && meta.toolUseId)
    return linkSpawn(em, meta.toolUseId, spawn, agentId, 'spawn_call_id', onLinked);
  const teammate = meta.name ? getOwn(em.session.teammates ?? {}, meta.name) : undefined;
  if (teammate) return teammate;
  const parent = meta.parentAgentId
    ? (getOwn(em.session.agents, meta.parentAgentId) ?? `${em.sessionId}/${meta.parentAgentId}`)
    : em.sessionId;
  // A workflow's agents run beside the session (the Workflow tool does not block it).
  const workflow = meta.workflow !== undefined;
  return linkSpawn(
    em,
    meta.toolUseId ?? agentId,
    {
      parent,
      agentType: meta.agentType ?? (workflow ? 'workflow' : 'general-purpose'),
      purpose: meta.description ?? (workflow ? `Workflow ${meta.workflow}` : 'sub-agent'),
      promptKey: '',
      background: workflow,
      ts: em.ts,
      version: em.line.version ?? em.session.version,
    },
    agentId,
    meta.toolUseId ? 'spawn_call_id' : 'explicit',
    onLinked,
  );
}
