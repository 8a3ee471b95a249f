import { TaskStatus } from './node';

/** One item of a node's task list, as stored in a snapshot and shown by `expand[]=tasks`. */
export interface TaskItem {
  id: string;
  content: string;
  status: TaskStatus;
  active_form: string | null;
  /** Present (both) only on tasks whose events gave an owner or blockers. */
  owner?: string | null;
  blocked_by?: string[];
  created: number;
  updated: number;
}

export interface TaskSnapshot {
  nodeNo: number;
  seq: number;
  tasks: TaskItem[];
}

export interface SpawnRecord {
  requesterNo: number;
  childNo: number;
  seq: number;
  spawnCallId: string | null;
  agentType: string;
  purpose: string;
  background: boolean;
  created: number;
}

/** A wait of `nodeNo` on `onNo`; `endedSeq`/`ended` stay null while it is open. */
export interface WaitRecord {
  nodeNo: number;
  onNo: number;
  startedSeq: number;
  started: number;
  reason: string | null;
  endedSeq: number | null;
  ended: number | null;
}

export interface WaitClosure {
  nodeNo: number;
  onNo: number;
  startedSeq: number;
  endedSeq: number;
  ended: number;
}

export interface MessageRecord {
  seq: number;
  fromNo: number;
  toNo: number;
  messageId: string;
  /** At most 2,000 characters; longer texts are cut there. */
  text: string | null;
  created: number;
}
