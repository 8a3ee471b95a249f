import { type SourceLine, opencodeAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import { convertChunks, expectAnyArrivalValid } from './support/chunked-convert';
import { expectValidStream, nodeOf, replay } from './support/graph-replay';
import { expectEachStateChangeOnce } from './support/state-changes';
import { OPENCODE_SETS, opencodeRows, rootOf, rowFiles } from './support/opencode-fixture';

/**
 * The opencode adapter on each set of rows (test/fixtures/opencode*, each with its README): hand-made
 * after opencode's schema, and written by opencode itself; as `watch` copies them out of the
 * database. Expected values are read from the raw rows.
 */
const convert = (...chunks: SourceLine[][]): WatchEvent[] => convertChunks(opencodeAdapter, chunks);

describe.each(OPENCODE_SETS)('opencode rows $name', ({ root }) => {
  const rows = opencodeRows(root);
  const files = rowFiles(rows);
  const refOf = (id: string) => (rootOf(rows, id) === id ? id : `${rootOf(rows, id)}/${id}`);
  const taskOf = (child: string) =>
    rows.parts.find(
      (p) =>
        p.data['tool'] === 'task' &&
        (p.data['state'] as { metadata: { sessionId?: string } }).metadata.sessionId === child,
    )!;
  const events = convert(files.flat());
  const state = replay(events);

  it('gives a valid stream: every event accepted, keys unique', () => {
    expectValidStream(events);
  });

  it('sends each state change once: no status repeats the state before it', () => {
    expectEachStateChangeOnce(events);
  });

  it('makes each session a node: a child session an agent under its parent, run by its task call', () => {
    for (const s of rows.sessions) {
      const node = nodeOf(state, refOf(s.id));
      expect([s.id, node.kind, node.created, node.cwd]).toEqual([
        s.id,
        s.parent_id ? 'agent' : 'session',
        s.time_created,
        s.directory,
      ]);
      if (!s.parent_id) continue;
      const parent = [...state.nodes.values()].find((n) => n.no === node.parentNo)!;
      const task = taskOf(s.id);
      const call = task.data['state'] as { input: Record<string, string>; time: { end: number } };
      expect([parent.ref, node.agentType, node.spawnCallId, node.purpose]).toEqual([
        refOf(s.parent_id),
        call.input['subagent_type'],
        task.data['callID'],
        call.input['description'],
      ]);
      expect([node.state, node.ended]).toEqual(['completed', call.time.end]);
    }
  });

  it('names the provider and version, and dates every event by its row', () => {
    const times = new Set<number>();
    for (const r of [...rows.sessions, ...rows.messages, ...rows.parts]) {
      times.add(r.time_updated);
      times.add(r.time_created as number);
      const data = (r as { data?: Record<string, unknown> }).data ?? {};
      const t = (data['time'] ?? (data['state'] as { time?: unknown })?.['time']) as
        Record<string, number> | undefined;
      for (const v of Object.values(t ?? {})) times.add(v);
    }
    for (const e of events) {
      expect([e.key, times.has(e.created)]).toEqual([e.key, true]);
      const session = rows.sessions.find((s) => s.id === e.node.split('/').pop())!;
      expect(e.source).toEqual({
        provider: 'opencode',
        provider_version: session.version,
        adapter: 'opencode-rows/1',
      });
    }
  });

  it('a finished turn leaves the session idle, an aborted one too, with the error; todos become tasks', () => {
    for (const s of rows.sessions.filter((x) => !x.parent_id)) {
      const node = nodeOf(state, s.id);
      const last = rows.messages.filter((m) => m.session_id === s.id).pop()!;
      const error = last.data['error'] as { data: { message: string } } | undefined;
      expect([s.id, node.state, node.title]).toEqual([s.id, 'idle', s.title]);
      if (error) expect(node.summary).toBe(error.data.message);
    }
    const todo = rows.parts.find((p) => p.data['tool'] === 'todowrite')!;
    const input = (todo.data['state'] as { input: { todos: Array<Record<string, string>> } }).input;
    expect(events.find((e) => e.type === 'tasks.updated')!.payload).toEqual({
      tasks: input.todos.map((t) => ({ id: t['id'], content: t['content'], status: t['status'] })),
    });
  });

  it('a task call read before its sub-agent session still ends it once the session is read', () => {
    const child = rows.sessions.find((x) => x.parent_id)!;
    const ofChild = (f: SourceLine[]) => f[0]!.file.id === child.id;
    const late = convert(files.filter((f) => !ofChild(f)).flat(), files.filter(ofChild).flat());
    expectValidStream(late);
    expect(nodeOf(replay(late), refOf(child.id)).state).toBe('completed');
    // dated by the task call's end (ingest may raise it past what the graph already holds)
    const ended = late.find((e) => e.type === 'ended' && e.node === refOf(child.id))!;
    expect(ended.created).toBe(nodeOf(state, refOf(child.id)).ended);
  });

  it('rows copied again (a part updated twice, a restart) add nothing', () => {
    const again = convert(files.flat(), files.flat());
    expect(again.map((e) => e.key)).toEqual(events.map((e) => e.key));
  });

  it('property: any prefix of each session’s rows, arriving in any order, gives a valid stream, the same on re-read', () => {
    expectAnyArrivalValid(files, convert, 60);
  });
});
