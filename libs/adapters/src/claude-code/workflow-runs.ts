import type { EndState, WatchEvent } from '@graph-history/domain';
import { getOwn } from '../own-record';
import { cleanText } from '../text';
import { Emitter } from './emitter';
import type { ParsedLine } from './line';
import { standInLine } from './line';
import { endAgent } from './spawns';
import type { ClaudeCodeState } from './state';
import { TEXT_MAX } from './tool-input';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;
const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** How an agent of a workflow run finished, from its `workflowProgress` entry. */
export interface WorkflowEnd {
  agentId: string;
  state: EndState;
  summary?: string;
}

/** A dated end of one workflow agent, waiting for its turn in the timeline. */
export interface WorkflowEndLine {
  ts: number;
  line: ParsedLine;
  end: WorkflowEnd;
}

const AGENT_STATES: Record<string, EndState> = {
  done: 'completed',
  completed: 'completed',
  failed: 'failed',
  error: 'failed',
  stopped: 'canceled',
  canceled: 'canceled',
  cancelled: 'canceled',
  killed: 'canceled',
};

/** A run that stopped ends its unfinished agents this way. */
const RUN_ENDS: Record<string, EndState> = { failed: 'failed', stopped: 'canceled' };

/**
 * The agents' ends a workflow run's record (`workflows/wf_<run>.json`, written when the run
 * finishes) tells: each `workflowProgress` entry of `type: "workflow_agent"` with its `agentId`,
 * `state` (`done`, `failed`…), `startedAt` and `durationMs` (ms), dated by when it finished (else
 * the run's `startTime` + `durationMs`). An agent still `running` in a record of a run that
 * `failed` or was `stopped` ends with the run.
 */
export function workflowRunEnds(
  sessionId: string,
  fileId: string,
  text: string,
): { lines: WorkflowEndLine[]; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { lines: [], problem: `invalid JSON (${(err as Error).message.slice(0, 120)})` };
  }
  if (!isObj(value)) return { lines: [], problem: 'workflow record is not a JSON object' };
  const runStart = num(value['startTime']);
  const runDuration = num(value['durationMs']);
  const runEnd = runStart !== undefined ? runStart + (runDuration ?? 0) : undefined;
  const runEndsAs = RUN_ENDS[str(value['status']) ?? ''];
  const progress = Array.isArray(value['workflowProgress']) ? value['workflowProgress'] : [];
  const lines: WorkflowEndLine[] = [];
  progress.forEach((entry: unknown, i) => {
    if (!isObj(entry) || entry['type'] !== 'workflow_agent') return;
    const agentId = str(entry['agentId']);
    const state = getOwn(AGENT_STATES, str(entry['state']) ?? '') ?? runEndsAs;
    if (!agentId || !state) return;
    const started = num(entry['startedAt']);
    const duration = num(entry['durationMs']);
    const ts = started !== undefined && duration !== undefined ? started + duration : runEnd;
    if (ts === undefined) return;
    const error = str(entry['error']);
    const end: WorkflowEnd = {
      agentId,
      state,
      ...(error ? { summary: cleanText(error, TEXT_MAX) } : {}),
    };
    lines.push({ ts, end, line: standInLine(fileId, `A${i}`, sessionId, ts, '') });
  });
  return { lines };
}

/** Ends a workflow agent the session knows (an agent never seen started is left alone). */
export function applyWorkflowEnd(
  state: ClaudeCodeState,
  sessionId: string,
  { line, end }: Pick<WorkflowEndLine, 'line' | 'end'>,
  out: WatchEvent[],
): void {
  const session = getOwn(state.sessions, sessionId);
  const ref = session ? getOwn(session.agents, end.agentId) : undefined;
  if (!session || !ref) return;
  endAgent(new Emitter(sessionId, session, line, line.ts!, out), ref, end.state, end.summary);
}
