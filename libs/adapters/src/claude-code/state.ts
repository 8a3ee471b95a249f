import type { NodeState } from '@graph-history/domain';
import type { OwnRecord } from '../own-record';
import type { ParsedLine, TodoInput, ToolOp } from './line';

/** What the adapter has told the server about one node. */
export interface NodeMemo {
  kind: 'session' | 'agent';
  state: NodeState;
  ended: boolean;
  /** Transcript time of the last event sent for the node (activity throttling). */
  lastEventAt: number;
  attention: boolean;
  tasks: TodoInput[];
  /** Last assistant text, the summary when the node goes idle or ends. */
  lastText?: string;
  /** Refs the node explicitly waits on (blocking TaskOutput polls). */
  waitsOn: string[];
  /** An agent's parent ref and depth (absent: a session, or an agent remembered before 2026-11). */
  parent?: string;
  depth?: number;
}

/** A spawn call (`Task`/`Agent` tool use) whose result has not arrived yet. */
export interface SpawnMemo {
  parent: string;
  agentType: string;
  purpose: string;
  promptKey: string;
  background: boolean;
  ts: number;
  version: string;
  cwd?: string;
  /** Set once the call is tied to its agent. */
  agentRef?: string;
  /** Agent teams: the teammate's name. */
  name?: string;
}

/** A tool call whose result matters (task polls, stops, task creation, permission prompts). */
export interface ToolMemo {
  node: string;
  label: string;
  tool: ToolOp;
  /** The ref a blocking poll waits on. */
  waitOn?: string;
}

export interface SessionMemo {
  version: string;
  titled: boolean;
  nodes: OwnRecord<NodeMemo>;
  spawns: OwnRecord<SpawnMemo>;
  /** Agent id (2.x) → agent ref, for results, notifications, polls and sub-agent files. */
  agents: OwnRecord<string>;
  tools: OwnRecord<ToolMemo>;
  /** 1.0.x: uuid of an inline sidechain line → the agent ref it belongs to. */
  sidechains: OwnRecord<string>;
  /** Agent teams: teammate name → agent ref (`team-lead` is the session). */
  teammates: OwnRecord<string>;
  /** `<fingerprint>:<copy>` of the last message copies seen, so a message is sent once (teams.ts). */
  messages: string[];
  /** `<file id>:<message id>` of the last usage reports sent (emitter.ts), newest last. */
  usageSent?: string[];
  /** 1.0.x: the agent of the last inline sidechain line. */
  lastSidechain?: string;
}

/** `agent-<id>.meta.json` of a 2.1.x sub-agent file. */
export interface AgentMeta {
  agentType?: string;
  description?: string;
  toolUseId?: string;
  parentAgentId?: string;
  spawnDepth?: number;
  name?: string;
  /** The workflow run that started the agent (its files are under `subagents/workflows/<run>/`). */
  workflow?: string;
}

export interface FileMemo {
  /** Path relative to the project directory, for problem reports. */
  path: string;
  sessionId?: string;
  /** Agent id of a sub-agent file. */
  agentId?: string;
  lastTs?: number;
  /** The agent a sub-agent file belongs to, once tied to its spawn call. */
  agentRef?: string;
  /** Lines of a sub-agent file read before its agent could be created. */
  pending: ParsedLine[];
  dropped: number;
  /** Uuids of the file's last lines (compaction re-appends old lines: they are applied once). */
  seen?: string[];
}

/** An agent team whose files (`~/.claude/teams/<team>/`) feed the graph. */
export interface TeamMemo {
  /** The lead's session id (`leadSessionId` of `config.json`). */
  lead?: string;
  /** Ids of the members and inbox messages already applied (files are rewritten whole). */
  applied: string[];
}

export interface ClaudeCodeState {
  sessions: OwnRecord<SessionMemo>;
  files: OwnRecord<FileMemo>;
  /** `<sessionId>/<agentId>` → the agent's meta file. */
  metas: OwnRecord<AgentMeta>;
  /** Rows skipped because their type is unknown, by type (counted, never fatal). */
  skipped: OwnRecord<number>;
  teams: OwnRecord<TeamMemo>;
}

export function createClaudeCodeState(): ClaudeCodeState {
  return { sessions: {}, files: {}, metas: {}, skipped: {}, teams: {} };
}

export function newSessionMemo(version: string): SessionMemo {
  return {
    version,
    titled: false,
    nodes: {},
    spawns: {},
    agents: {},
    tools: {},
    sidechains: {},
    teammates: {},
    messages: [],
  };
}

export function newNodeMemo(kind: NodeMemo['kind'], ts: number): NodeMemo {
  return {
    kind,
    state: 'working',
    ended: false,
    lastEventAt: ts,
    attention: false,
    tasks: [],
    waitsOn: [],
  };
}
