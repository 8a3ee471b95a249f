import type { WatchEvent } from '@graph-history/domain';
import type { LineProblem } from '../adapter';
import { getOwn, setOwn } from '../own-record';
import { applyFacts } from './apply-facts';
import { Emitter } from './emitter';
import type { LineRole } from './files';
import { type Fact, type ParsedLine, standInLine } from './line';
import { agentFromMeta } from './agent-meta';
import { seenBefore } from './seen-lines';
import { firstApplication, teamMemo } from './team-files';
import { type OnLinked, linkSpawn, spawnByPrompt } from './spawns';
import { type ClaudeCodeState, type FileMemo, type SessionMemo, newSessionMemo } from './state';

/** Lines of a sub-agent file held while its agent is unknown; older ones are dropped beyond this. */
export const MAX_PENDING_LINES = 2_000;

export interface Run {
  state: ClaudeCodeState;
  out: WatchEvent[];
  problems: LineProblem[];
}

export function fileMemo(state: ClaudeCodeState, fileId: string, path: string): FileMemo {
  const existing = getOwn(state.files, fileId);
  if (existing) return existing;
  const memo: FileMemo = { path, pending: [], dropped: 0 };
  setOwn(state.files, fileId, memo);
  return memo;
}

function problem(run: Run, file: FileMemo, line: ParsedLine, message: string): void {
  run.problems.push({ file: file.path, lineNo: line.lineNo, message });
}

function sessionFor(run: Run, sessionId: string, line: ParsedLine): SessionMemo {
  let session = getOwn(run.state.sessions, sessionId);
  if (!session) {
    session = newSessionMemo(line.version ?? '');
    setOwn(run.state.sessions, sessionId, session);
  }
  if (line.version) session.version = line.version;
  return session;
}

/** Sub-agents of Claude Code before 2.1 leave no progress line naming their spawn call. */
function linksByIdOnly(version: string | undefined): boolean {
  const match = version ? /^(\d+)\.(\d+)/.exec(version) : null;
  if (!match) return false;
  const major = Number(match[1]);
  return major > 2 || (major === 2 && Number(match[2]) >= 1);
}

function rootPrompt(line: ParsedLine): string | undefined {
  const fact = line.facts.find(
    (f): f is Extract<Fact, { kind: 'root_prompt' }> => f.kind === 'root_prompt',
  );
  return fact?.promptKey;
}

/** Once an agent id is tied to a ref, replays the lines its file had to hold back. */
function onLinked(run: Run, sessionId: string, session: SessionMemo): OnLinked {
  const replay: OnLinked = (agentId, ref) => {
    if (!agentId) return;
    for (const fileId of [`${sessionId}/agent-${agentId}`, `agent-${agentId}`]) {
      const file = getOwn(run.state.files, fileId);
      if (!file || file.agentRef) continue;
      file.agentRef = ref;
      const pending = file.pending;
      file.pending = [];
      for (const line of pending) {
        applyFacts(
          new Emitter(sessionId, session, line, line.ts!, run.out),
          ref,
          line.facts,
          replay,
        );
      }
    }
  };
  return replay;
}

/** 1.0.x: inline sidechain lines belong to the agent whose spawn prompt their root repeats. */
function routeSidechain(run: Run, em: Emitter, line: ParsedLine, linked: OnLinked): void {
  const key = rootPrompt(line);
  let ref: string | undefined;
  if (key !== undefined) {
    const match = spawnByPrompt(em, key);
    if (match) ref = linkSpawn(em, match[0], match[1], undefined, 'inferred', linked);
  } else if (line.parentUuid) {
    // A chain broken by rows written outside the sidechain (attachments) continues the last agent.
    ref = getOwn(em.session.sidechains, line.parentUuid) ?? em.session.lastSidechain;
  }
  if (!ref) return;
  if (line.uuid && em.live(ref)) setOwn(em.session.sidechains, line.uuid, ref);
  em.session.lastSidechain = ref;
  applyFacts(em, ref, line.facts, linked);
}

function routeAgentLine(
  run: Run,
  em: Emitter,
  agentId: string,
  file: FileMemo,
  line: ParsedLine,
  linked: OnLinked,
): void {
  let ref =
    file.agentRef ??
    getOwn(em.session.agents, agentId) ??
    agentFromMeta(run.state, em, agentId, linked);
  const key = rootPrompt(line);
  if (!ref && key !== undefined && !linksByIdOnly(line.version)) {
    const match = spawnByPrompt(em, key);
    if (match) ref = linkSpawn(em, match[0], match[1], agentId, 'inferred', linked);
  }
  if (!ref) {
    file.agentId = agentId;
    file.pending.push(line);
    if (file.pending.length > MAX_PENDING_LINES) {
      file.pending.shift();
      if (file.dropped++ === 0)
        problem(
          run,
          file,
          line,
          'sub-agent not yet tied to a spawn call; dropping its oldest held lines',
        );
    }
    return;
  }
  file.agentRef = ref;
  applyFacts(em, ref, line.facts, linked);
}

/** An entry of a team's files, applied in the lead's session once (files are rewritten whole). */
function routeTeamEntry(run: Run, team: string, line: ParsedLine, file: FileMemo): void {
  const memo = teamMemo(run.state, team);
  const sessionId = memo.lead;
  const session = sessionId ? getOwn(run.state.sessions, sessionId) : undefined;
  if (!sessionId || !session || !getOwn(session.nodes, sessionId) || line.ts === undefined) {
    problem(run, file, line, `team ${team}: its lead session is not known yet; entry skipped`);
    return;
  }
  if (!firstApplication(memo, line.lineId)) return;
  const em = new Emitter(sessionId, session, line, line.ts, run.out);
  applyFacts(em, sessionId, line.facts, onLinked(run, sessionId, session));
}

/** Routes one parsed line to its session or agent node and applies its facts. */
export function routeLine(run: Run, role: LineRole, line: ParsedLine, file: FileMemo): void {
  if (role.role === 'workflow_run') return; // applied by the adapter (workflow-runs.ts)
  if (role.role === 'team') return routeTeamEntry(run, role.team, line, file);
  if (line.uuid !== undefined && seenBefore(file, line.uuid)) return;
  const sessionId =
    role.role === 'main' ? role.sessionId : (role.sessionId ?? file.sessionId ?? line.sessionId);
  if (sessionId === undefined) {
    if (line.facts.length > 0) problem(run, file, line, 'line names no sessionId; skipped');
    return;
  }
  file.sessionId = sessionId;
  if (line.ts === undefined) {
    if (line.facts.length > 0)
      problem(run, file, line, 'line has no timestamp and none precedes it; skipped');
    return;
  }
  const session = sessionFor(run, sessionId, line);
  const em = new Emitter(sessionId, session, line, line.ts, run.out);
  const linked = onLinked(run, sessionId, session);
  if (role.role === 'agent') return routeAgentLine(run, em, role.agentId, file, line, linked);
  em.startSession(line.cwd ? { cwd: line.cwd } : {});
  if (line.sidechain) return routeSidechain(run, em, line, linked);
  applyFacts(em, sessionId, line.facts, linked);
}

/**
 * Sub-agent files whose lines are held can be tied once their meta file was read (meta files may
 * be written after the first lines): tries those before applying new lines.
 */
export function linkHeldByMeta(run: Run): void {
  for (const file of Object.values(run.state.files)) {
    const first = file.pending[0];
    if (!first || file.agentRef || file.agentId === undefined || file.sessionId === undefined)
      continue;
    if (!getOwn(run.state.metas ?? {}, `${file.sessionId}/${file.agentId}`)) continue;
    const session = getOwn(run.state.sessions, file.sessionId);
    if (!session) continue;
    const em = new Emitter(file.sessionId, session, first, first.ts!, run.out);
    const linked = onLinked(run, file.sessionId, session);
    const ref = agentFromMeta(run.state, em, file.agentId, linked);
    if (ref && !file.agentRef) linked(file.agentId, ref);
  }
}

/**
 * A meta file names the spawn call of its agent, and is written when the agent starts, long before
 * the agent's own transcript may be flushed: once that call is known, the agent is created (dated
 * by the call) without waiting for the agent's lines.
 */
export function linkSpawnsByMeta(run: Run, ts: number): void {
  for (const [key, meta] of Object.entries(run.state.metas ?? {})) {
    if (!meta.toolUseId) continue;
    const slash = key.indexOf('/');
    const sessionId = key.slice(0, slash);
    const agentId = key.slice(slash + 1);
    const session = getOwn(run.state.sessions, sessionId);
    const spawn = session ? getOwn(session.spawns, meta.toolUseId) : undefined;
    if (!session || !spawn || spawn.agentRef || getOwn(session.agents, agentId)) continue;
    const line = standInLine(
      `${sessionId}/agent-${agentId}.meta`,
      'meta',
      sessionId,
      ts,
      spawn.version,
    );
    const em = new Emitter(sessionId, session, line, Math.max(ts, spawn.ts), run.out);
    linkSpawn(
      em,
      meta.toolUseId,
      spawn,
      agentId,
      'spawn_call_id',
      onLinked(run, sessionId, session),
    );
  }
}

/**
 * End of a back-fill: ties held sub-agent files to a spawn call by their prompt. Files still
 * unexplained (warm-up runs, or a link not written yet) are reported and kept for a later run.
 */
export function settlePending(run: Run): void {
  for (const file of Object.values(run.state.files)) {
    const first = file.pending[0];
    if (!first || file.agentRef || file.agentId === undefined || file.sessionId === undefined)
      continue;
    const session = getOwn(run.state.sessions, file.sessionId);
    const key = file.pending.map(rootPrompt).find((k) => k !== undefined);
    if (session && key !== undefined) {
      const em = new Emitter(file.sessionId, session, first, first.ts!, run.out);
      const match = spawnByPrompt(em, key);
      if (match)
        linkSpawn(
          em,
          match[0],
          match[1],
          file.agentId,
          'inferred',
          onLinked(run, file.sessionId, session),
        );
    }
    if (file.pending.length > 0) {
      problem(
        run,
        file,
        first,
        `sub-agent file not tied to any spawn call; its ${file.pending.length} line(s) are held, not sent`,
      );
    }
  }
}
