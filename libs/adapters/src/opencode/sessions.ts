import { LIMITS, type PayloadOf } from '@graph-history/domain';
import { str } from '../json';
import { NodeEmitter, pushCreation } from '../node-emitter';
import { getOwn, setOwn } from '../own-record';
import { cleanText } from '../text';
import type { RowLine } from './row-line';
import { settleTaskEnd } from './rows';
import { OPENCODE_SOURCE } from './source';
import { type Run, type SessionMemo, sessionOf } from './state';

export type RouteRow = (run: Run, memo: SessionMemo, line: RowLine) => void;

type Created = SessionMemo & { ref: string };

/** opencode's own titles before it names a session: not worth a `title`. */
const PLACEHOLDER = /^(New session|Child session) - \d{4}-\d{2}-\d{2}T/;
/** A sub-agent session's title: `<description> (@<agent> subagent)` (opencode's task tool). */
const SUBAGENT_TITLE = /^(.*) \(@([^)]+) subagent\)$/;

function spawnPayload(run: Run, id: string, memo: SessionMemo, parent: Created) {
  const link = getOwn(run.state.tasks, id);
  const named = SUBAGENT_TITLE.exec(memo.title ?? '');
  const payload: PayloadOf<'agent.spawned'> = {
    parent: parent.ref,
    agent_type: cleanText(link?.agentType ?? named?.[2] ?? 'subagent', LIMITS.shortText),
    purpose: cleanText(
      link?.purpose ?? named?.[1] ?? memo.title ?? 'opencode sub-agent',
      LIMITS.text,
    ),
    // the task tool returns when its session is done: the caller waits in the foreground
    background: false,
    link_method: link && link.callerSession === memo.parentId ? 'spawn_call_id' : 'explicit',
    ...(link ? { spawn_call_id: cleanText(link.callId, LIMITS.shortText) } : {}),
    ...(memo.directory !== undefined ? { cwd: cleanText(memo.directory, LIMITS.text) } : {}),
  };
  return payload;
}

/** Creates a session's node once it can be: a sub-agent's once its parent's exists. */
export function createWhenReady(run: Run, id: string, route: RouteRow): void {
  const memo = getOwn(run.state.sessions, id);
  if (!memo || memo.ref !== undefined || memo.createdAt === undefined) return;
  if (memo.parentId === undefined) {
    Object.assign(memo, { ref: id, sessionRef: id, depth: 0 });
    const payload: PayloadOf<'session.started'> = {
      ...(memo.directory !== undefined ? { cwd: cleanText(memo.directory, LIMITS.text) } : {}),
    };
    pushCreation(
      OPENCODE_SOURCE,
      run.out,
      memo as Created,
      { type: 'session.started', payload },
      memo.createdAt,
    );
  } else {
    const parent = getOwn(run.state.sessions, memo.parentId);
    if (parent?.ref === undefined || (parent.depth ?? 0) >= LIMITS.treeDepth) return;
    const payload = spawnPayload(run, id, memo, parent as Created);
    Object.assign(memo, {
      ref: `${parent.sessionRef}/${id}`,
      sessionRef: parent.sessionRef,
      depth: (parent.depth ?? 0) + 1,
    });
    pushCreation(
      OPENCODE_SOURCE,
      run.out,
      memo as Created,
      { type: 'agent.spawned', payload },
      memo.createdAt,
    );
    const emit = new NodeEmitter(OPENCODE_SOURCE, [id, 'wait'], memo.createdAt, run.out);
    if (emit.send('wait.started', parent, { on: [memo.ref!], reason: 'runs a sub-agent' })) {
      setOwn(run.state.waits, id, memo.parentId);
    }
  }
  const held = memo.held;
  memo.held = [];
  for (const line of held) route(run, memo, line);
  settleTaskEnd(run, id);
  for (const [childId, child] of Object.entries(run.state.sessions)) {
    if (child.parentId === id && child.ref === undefined) createWhenReady(run, childId, route);
  }
}

/** A `session` row: the session's facts, its node, and its title when opencode names it. */
export function applySessionRow(run: Run, line: RowLine, route: RouteRow): void {
  const memo = sessionOf(run.state, line.id, line.path);
  const row = line.row;
  const version = str(row['version']);
  if (version !== undefined) memo.version = version;
  const title = str(row['title']);
  if (memo.createdAt === undefined) {
    const parent = str(row['parent_id']);
    const directory = str(row['directory']);
    Object.assign(memo, {
      createdAt: line.ts ?? line.updated,
      ...(parent !== undefined ? { parentId: parent } : {}),
      ...(directory !== undefined ? { directory } : {}),
      ...(title !== undefined ? { title } : {}),
    });
    createWhenReady(run, line.id, route);
  }
  if (title === undefined || memo.parentId !== undefined || PLACEHOLDER.test(title)) return;
  const clean = cleanText(title, LIMITS.shortText);
  if (clean === memo.sentTitle) return;
  const emit = new NodeEmitter(
    OPENCODE_SOURCE,
    [line.id, 'title', line.updated],
    line.ts ?? line.updated,
    run.out,
  );
  if (emit.send('title', memo, { title: clean })) memo.sentTitle = clean;
}
