import type { FolderKind, TranscriptFile } from '../adapter';

/** What a Claude Code transcript file holds, read from its path. */
export type FileRole =
  | { role: 'main'; sessionId: string }
  /**
   * A sub-agent's own file; `sessionId` is unknown for 2.0.x files kept beside the sessions.
   * `workflow`: an agent a workflow run started (`<session>/subagents/workflows/<run>/`).
   */
  | { role: 'agent'; sessionId: string | undefined; agentId: string; workflow?: string }
  /** 2.1.x `agent-<id>.meta.json` beside a sub-agent file: its type, spawn call and parent agent. */
  | { role: 'meta'; sessionId: string; agentId: string; workflow?: string }
  /** A workflow run's record (`<session>/workflows/wf_<run>.json`): its agents' ends. */
  | { role: 'workflow_run'; sessionId: string; run: string }
  /** Agent teams (`~/.claude/teams/<team>/`): `config.json`, the members and the lead session. */
  | { role: 'team_config'; team: string }
  /** Agent teams: `inboxes/<name>.json`, the messages teammate `name` received. */
  | { role: 'inbox'; team: string; name: string };

/** The roles of timed lines: transcript lines, and entries of a team's files. */
export type LineRole =
  Exclude<FileRole, { role: 'meta' | 'team_config' | 'inbox' }> | { role: 'team'; team: string };

const MAIN = /^([^/]+)\.jsonl$/;
const NESTED_AGENT = /^([^/]+)\/subagents\/agent-([^/]+)\.jsonl$/;
const TOP_AGENT = /^agent-([^/]+)\.jsonl$/;
const META = /^([^/]+)\/subagents\/agent-([^/]+)\.meta\.json$/;
const WORKFLOW_AGENT = /^([^/]+)\/subagents\/workflows\/([^/]+)\/agent-([^/]+)\.jsonl$/;
const WORKFLOW_META = /^([^/]+)\/subagents\/workflows\/([^/]+)\/agent-([^/]+)\.meta\.json$/;
const WORKFLOW_RUN = /^([^/]+)\/workflows\/(wf_[^/]+)\.json$/;
const TEAM_CONFIG = /^([^/]+)\/config\.json$/;
const INBOX = /^([^/]+)\/inboxes\/([^/]+)\.json$/;

/** The group of a team's files (`team:<name>`), apart from sessions. */
export const teamGroup = (team: string): string => `team:${team}`;

/** The folder a detected file was found in, from its group. */
export const folderOf = (file: TranscriptFile): FolderKind =>
  file.group.startsWith('team:') ? 'teams' : 'sessions';

/** Compaction runs (`agent-acompact-*`) are internal to Claude Code, not sub-agents. */
function isInternalRun(agentId: string): boolean {
  return agentId.startsWith('acompact');
}

function classifyTeamPath(path: string): FileRole | undefined {
  const config = TEAM_CONFIG.exec(path);
  if (config) return { role: 'team_config', team: config[1]! };
  const inbox = INBOX.exec(path);
  return inbox ? { role: 'inbox', team: inbox[1]!, name: inbox[2]! } : undefined;
}

/** What a file holds, from its path inside a folder of sessions or of teams. */
export function classifyPath(path: string, folder: FolderKind = 'sessions'): FileRole | undefined {
  if (folder === 'teams') return classifyTeamPath(path);
  const workflowMeta = WORKFLOW_META.exec(path);
  if (workflowMeta) {
    const [, sessionId, workflow, agentId] = workflowMeta as unknown as [
      string,
      string,
      string,
      string,
    ];
    return { role: 'meta', sessionId, agentId, workflow };
  }
  const workflowAgent = WORKFLOW_AGENT.exec(path);
  if (workflowAgent) {
    const [, sessionId, workflow, agentId] = workflowAgent as unknown as [
      string,
      string,
      string,
      string,
    ];
    return { role: 'agent', sessionId, agentId, workflow };
  }
  const workflowRun = WORKFLOW_RUN.exec(path);
  if (workflowRun)
    return { role: 'workflow_run', sessionId: workflowRun[1]!, run: workflowRun[2]! };
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
 * with their `agent-<id>.meta.json`, workflow runs' agents (`<sessionId>/subagents/workflows/<run>/`)
 * and records (`<sessionId>/workflows/wf_<run>.json`), 2.0.x sub-agent files `agent-<id>.jsonl`,
 * and in a folder of teams `<team>/config.json` and `<team>/inboxes/<name>.json`; everything else
 * is ignored. */
export function detectFiles(
  paths: readonly string[],
  folder: FolderKind = 'sessions',
): TranscriptFile[] {
  const files: TranscriptFile[] = [];
  for (const path of paths) {
    const role = classifyPath(path, folder);
    if (!role) continue;
    if (role.role === 'main') {
      files.push({ path, id: role.sessionId, group: role.sessionId });
    } else if (role.role === 'team_config') {
      files.push({ path, id: teamGroup(role.team), group: teamGroup(role.team), whole: true });
    } else if (role.role === 'inbox') {
      const id = `${teamGroup(role.team)}/${role.name}`;
      files.push({ path, id, group: teamGroup(role.team), whole: true });
    } else if (role.role === 'workflow_run') {
      const id = `${role.sessionId}/workflows/${role.run}`;
      files.push({ path, id, group: role.sessionId, whole: true });
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
