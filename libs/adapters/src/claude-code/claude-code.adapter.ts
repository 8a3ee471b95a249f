import type {
  AdapterOutput,
  PreparedLine,
  SourceLine,
  TimedLine,
  TranscriptAdapter,
} from '../adapter';
import { getOwn, setOwn } from '../own-record';
import { prepareSortApply } from '../to-events';
import { announce } from './announce';
import { ADAPTER_NAME, ADAPTER_VERSION, PROVIDER } from './emitter';
import { type LineRole, classifyPath, detectFiles, folderOf } from './files';
import { hoistCreations } from './hoist-creations';
import type { ParsedLine } from './line';
import {
  type Run,
  fileMemo,
  linkHeldByMeta,
  linkSpawnsByMeta,
  routeLine,
  settlePending,
} from './line-router';
import { readAgentMeta } from './agent-meta';
import { parseLine } from './parse-line';
import { type WorkflowEnd, applyWorkflowEnd, workflowRunEnds } from './workflow-runs';
import { inboxEntries, teamConfigEntries } from './team-files';
import { type ClaudeCodeState, createClaudeCodeState } from './state';

/** A parsed transcript line waiting for its turn in the timeline. */
export interface ClaudeCodeLine extends TimedLine {
  role: LineRole;
  line: ParsedLine;
  fileId: string;
  path: string;
  /** A workflow run's record: how one of its agents ended. */
  workflowEnd?: WorkflowEnd;
}

function prepare(state: ClaudeCodeState, source: SourceLine): PreparedLine<ClaudeCodeLine> {
  const role = classifyPath(source.file.path, folderOf(source.file));
  if (!role) return {};
  if (role.role === 'meta') {
    const problem = readAgentMeta(state, role, source.text);
    return problem ? { problem: { file: source.file.path, lineNo: 1, message: problem } } : {};
  }
  if (role.role === 'workflow_run') {
    const ends = workflowRunEnds(role.sessionId, source.file.id, source.text);
    return {
      lines: ends.lines.map(({ ts, line, end }) => ({
        ts,
        role,
        line,
        fileId: source.file.id,
        path: source.file.path,
        workflowEnd: end,
      })),
      ...(ends.problem
        ? { problem: { file: source.file.path, lineNo: 1, message: ends.problem } }
        : {}),
    };
  }
  if (role.role === 'agent' && role.workflow !== undefined) {
    // An agent of a workflow needs no spawn call: its meta file (or, until it is read, its
    // folder) says it belongs to the run, and it is created under the session.
    const key = `${role.sessionId}/${role.agentId}`;
    state.metas ??= {};
    if (!getOwn(state.metas, key)) setOwn(state.metas, key, { workflow: role.workflow });
  }
  if (role.role === 'team_config' || role.role === 'inbox') {
    const entries =
      role.role === 'team_config'
        ? teamConfigEntries(state, role.team, source.file.id, source.text)
        : inboxEntries(state, role.team, role.name, source.file.id, source.text);
    const lineRole = { role: 'team' as const, team: role.team };
    return {
      lines: entries.lines.map((line) => ({
        ts: line.ts,
        role: lineRole,
        line,
        fileId: source.file.id,
        path: source.file.path,
      })),
      ...(entries.problem
        ? { problem: { file: source.file.path, lineNo: 1, message: entries.problem } }
        : {}),
    };
  }
  const parsed = parseLine(source.text, source.file.id, source.lineNo, role);
  if (parsed.ok === 'blank') return {};
  if (parsed.ok === false) {
    return { problem: { file: source.file.path, lineNo: source.lineNo, message: parsed.message } };
  }
  const file = fileMemo(state, source.file.id, source.file.path);
  if (parsed.line.ts === undefined) parsed.line.ts = file.lastTs;
  else file.lastTs = parsed.line.ts;
  const unknown = parsed.line.unknownType;
  if (unknown !== undefined) {
    state.skipped ??= {};
    setOwn(state.skipped, unknown, (getOwn(state.skipped, unknown) ?? 0) + 1);
    return {};
  }
  return {
    line: {
      ts: parsed.line.ts,
      role,
      line: parsed.line,
      fileId: source.file.id,
      path: source.file.path,
    },
  };
}

function apply(state: ClaudeCodeState, lines: readonly ClaudeCodeLine[]): AdapterOutput {
  const run: Run = { state, out: [], problems: [] };
  linkHeldByMeta(run);
  for (const { role, line, fileId, path, workflowEnd } of lines) {
    const file = fileMemo(state, fileId, path);
    try {
      if (role.role === 'workflow_run') {
        if (workflowEnd)
          applyWorkflowEnd(state, role.sessionId, { line, end: workflowEnd }, run.out);
        continue;
      }
      routeLine(run, role, line, file);
    } catch (err) {
      run.problems.push({
        file: path,
        lineNo: line.lineNo,
        message: `line skipped: ${(err as Error).message}`,
      });
    }
  }
  const last = lines[lines.length - 1]?.ts;
  if (last !== undefined) linkSpawnsByMeta(run, last);
  return { events: hoistCreations(run.out), problems: run.problems };
}

function flush(state: ClaudeCodeState): AdapterOutput {
  const run: Run = { state, out: [], problems: [] };
  settlePending(run);
  return { events: run.out, problems: run.problems };
}

/** Claude Code JSONL transcripts (1.0.x inline sidechains, 2.x sub-agent files). */
export const claudeCodeAdapter: TranscriptAdapter<ClaudeCodeState, ClaudeCodeLine> = {
  name: ADAPTER_NAME,
  version: ADAPTER_VERSION,
  provider: PROVIDER,
  detect: detectFiles,
  initialState: createClaudeCodeState,
  prepare,
  apply,
  announce,
  toEvents: prepareSortApply(prepare, apply),
  flush,
};
