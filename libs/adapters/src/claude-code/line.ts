import type { TokenCounts } from '@graph-history/domain';

/**
 * A transcript line reduced to what the graph needs. Lines can be megabytes long (tool output);
 * a ParsedLine keeps only short texts, so lines can be buffered and persisted cheaply.
 */
export interface ParsedLine {
  fileId: string;
  lineNo: number;
  /** The line's uuid, else `L<lineNo>`: with `fileId` it makes the line's event keys. */
  lineId: string;
  /** Transcript time in ms; a line without a timestamp gets its predecessor's. */
  ts: number | undefined;
  version: string | undefined;
  sessionId: string | undefined;
  cwd: string | undefined;
  uuid: string | undefined;
  parentUuid: string | undefined;
  /** 1.0.x sub-agent line written inline in the session file. */
  sidechain: boolean;
  facts: Fact[];
  /** A row type this adapter does not know (skipped, counted). */
  unknownType?: string;
  /** The prompt the line belongs to (`promptId`, Claude Code 2.1.x; hooks send it as `prompt_id`). */
  promptId?: string;
}

export interface TodoInput {
  id?: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  activeForm?: string;
  /** TaskUpdate `owner`: the agent (teammate name) the task is assigned to. */
  owner?: string;
  /** Ids of the tasks that must complete before this one (TaskUpdate `addBlockedBy`/`addBlocks`). */
  blockedBy?: string[];
}

export type ToolOp =
  | {
      op: 'spawn';
      agentType: string;
      purpose: string;
      promptKey: string;
      background: boolean;
      /** Agent teams: the teammate's name. */
      name?: string;
    }
  /** Agent teams: `SendMessage` to a teammate (or `team-lead`). */
  | { op: 'message'; to: string; text?: string }
  /** `AskUserQuestion`: the user has to answer. */
  | { op: 'question'; text: string }
  | { op: 'todos'; todos: TodoInput[] }
  | { op: 'task_create'; subject: string; activeForm?: string }
  | {
      op: 'task_update';
      taskId: string;
      status?: string;
      subject?: string;
      activeForm?: string;
      owner?: string;
      /** Tasks this one now waits for. */
      addBlockedBy?: string[];
      /** Tasks that now wait for this one. */
      addBlocks?: string[];
    }
  | { op: 'task_output'; taskId: string; block: boolean }
  | { op: 'task_stop'; taskId: string }
  | { op: 'other' };

export interface ToolResultFact {
  kind: 'tool_result';
  toolUseId: string;
  isError: boolean;
  /** The user refused the permission prompt. */
  rejected: boolean;
  /** The user interrupted the call. */
  interrupted: boolean;
  text: string | undefined;
  agentId?: string;
  asyncLaunched?: boolean;
  /** Id given to a task by TaskCreate. */
  createdTaskId?: string;
}

/** A message from a teammate delivered to a node (`<teammate-message teammate_id=…>`). */
export interface TeammateMessageFact {
  kind: 'teammate_message';
  from: string;
  text: string;
}

/** Agent teams: a member of a team's `config.json` (not the lead). */
export interface TeammateJoinedFact {
  kind: 'teammate_joined';
  name: string;
  /** `<name>@<team>`, as the transcript's spawn result names the teammate. */
  agentId: string;
  agentType: string;
  purpose: string;
  cwd?: string;
}

/** Agent teams: a message of `inboxes/<to>.json`, written by teammate `from`. */
export interface InboxMessageFact {
  kind: 'inbox_message';
  from: string;
  to: string;
  text: string;
}

/**
 * Tokens one model call used (an assistant message's `usage`). Claude Code repeats it on every
 * line of the message (one per content block); `id` (message id, else request id) counts it once.
 */
export interface UsageFact {
  kind: 'usage';
  id: string;
  model: string;
  tokens: TokenCounts;
  messageId?: string;
  requestId?: string;
}

export type Fact =
  /** The user (or a slash command) starts a turn. */
  | { kind: 'prompt'; text: string }
  | { kind: 'interrupt' }
  /** A background task or agent finished (`<task-notification>` / `<agent-notification>`). */
  | { kind: 'notification'; taskId: string; status: string; summary?: string; queued: boolean }
  /** The first message of a sub-agent: its prompt, used to find the spawning call. */
  | { kind: 'root_prompt'; promptKey: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; id: string; name: string; label: string; tool: ToolOp }
  | ToolResultFact
  | TeammateMessageFact
  | TeammateJoinedFact
  | InboxMessageFact
  | UsageFact
  /** `system compact_boundary`: the conversation was compacted. */
  | { kind: 'compacted' }
  | { kind: 'api_error'; message: string }
  | { kind: 'turn_end' }
  /** 2.1.x progress line tying a spawn call to the agent id it started. */
  | { kind: 'agent_link'; toolUseId: string; agentId: string }
  | { kind: 'waiting_for_task'; toolUseId: string; description: string | undefined }
  /** Proof of life without anything to show (thinking, command output streaming). */
  | { kind: 'alive' };

/**
 * A stand-in for a line that is not in a transcript (a hook's announcement, a meta file): its
 * events get keys `<fileId>:<lineId>:<n>` and no facts of its own.
 */
export function standInLine(
  fileId: string,
  lineId: string,
  sessionId: string,
  ts: number,
  version: string,
): ParsedLine {
  return {
    fileId,
    lineNo: 0,
    lineId,
    ts,
    version: version || undefined,
    sessionId,
    cwd: undefined,
    uuid: undefined,
    parentUuid: undefined,
    sidechain: false,
    facts: [],
  };
}
