import type { TranscriptFile } from '../adapter';

/** What a Claude Code transcript file holds, read from its path. */
export type FileRole =
  | { role: 'main'; sessionId: string }
  /** A sub-agent's own file; `sessionId` is unknown for 2.0.x files kept beside the sessions. */
  | { role: 'agent'; sessionId: string | undefined; agentId: string }
  /** 2.1.x `agent-<id>.meta.json` beside a sub-agent file: its type, spawn call and parent agent. */
  | { role: 'meta'; sessionId: string; agentId: string };

/** The roles of files read line by line. */
export type LineRole = Exclude<FileRole, { role: 'meta' }>;

const MAIN = /^([^/]+)\.jsonl$/;
const NESTED_AGENT = /^([^/]+)\/subagents\/agent-([^/]+)\.jsonl$/;
const TOP_AGENT = /^agent-([^/]+)\.jsonl$/;
const META = /^([^/]+)\/subagents\/agent-([^/]+)\.meta\.json$/;

/** Compaction runs (`agent-acompact-*`) are internal to Claude Code, not sub-agents. */
function isInternalRun(agentId: string): boolean {
  return agentId.startsWith('acompact');
}

export function classifyPath(path: string): FileRole | undefined {
  const meta = META.exec(path);
  if (meta) {
    const [, sessionId, agentId] = meta as unknown as [string, string, string];
    return isInternalRun(agentId) ? undefined : { role: 'meta', sessionId, agentId };
  }
  const nested = NESTED_AGENT.exec(path);
  if (nested) {
    const [, sessionId, agentId] = nested as unknown as [string, string, string];
    return isInternalRun(agentId) ? undefined : { role: 'agent', sessionId, agentId };
  }
  const top = TOP_AGENT.exec(path);
  if (top) {
    const agentId = top[1]!;
    return isInternalRun(agentId) ? undefined : { role: 'agent', sessionId: undefined, agentId };
  }
  const main = MAIN.exec(path);
  return main ? { role: 'main', sessionId: main[1]! } : undefined;
}

/** Main files `<sessionId>.jsonl`, 2.x sub-agent files `<sessionId>/subagents/agent-<id>.jsonl`
 * with their `agent-<id>.meta.json`, and 2.0.x sub-agent files `agent-<id>.jsonl`; everything
 * else is ignored. */
export function detectFiles(paths: readonly string[]): TranscriptFile[] {
  const files: TranscriptFile[] = [];
  for (const path of paths) {
    const role = classifyPath(path);
    if (!role) continue;
    if (role.role === 'main') {
      files.push({ path, id: role.sessionId, group: role.sessionId });
    } else if (role.role === 'meta') {
      const id = `${role.sessionId}/agent-${role.agentId}.meta`;
      files.push({ path, id, group: role.sessionId, whole: true });
    } else if (role.sessionId !== undefined) {
      files.push({ path, id: `${role.sessionId}/agent-${role.agentId}`, group: role.sessionId });
    } else {
      files.push({ path, id: `agent-${role.agentId}`, group: `agent-${role.agentId}` });
    }
  }
  return files;
}
