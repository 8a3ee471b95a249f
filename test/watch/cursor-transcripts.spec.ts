import { type SourceLine, cursorAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import { convertChunks, expectAnyArrivalValid } from './support/chunked-convert';
import { expectValidStream, nodeOf, replay } from './support/graph-replay';
import { expectEachStateChangeOnce } from './support/state-changes';
import { cursorFacts, transcriptFiles } from './support/cursor-facts';

/**
 * The Cursor adapter on transcripts shaped as Cursor writes them (test/fixtures/cursor, hand-made:
 * see its README). Cursor's lines carry no time: each file is dated here as the watcher dates it
 * (made at `born`, last written at `modified`). Expected values are read from the raw files.
 */
const convert = (...chunks: SourceLine[][]): WatchEvent[] => convertChunks(cursorAdapter, chunks);

const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);
const facts = cursorFacts();
/** The session's file is made first and written last; each sub-agent's in between. */
const timesOf = (path: string) => {
  const i = [...facts.values()].findIndex((f) => f.file === path);
  return path.includes('/subagents/')
    ? { born: T0 + i * 10_000, modified: T0 + i * 10_000 + 5_000 }
    : { born: T0, modified: T0 + 60_000 };
};
const files = transcriptFiles(timesOf);
const refOf = (id: string) => {
  const f = facts.get(id)!;
  return f.id === f.session ? id : `${f.session}/${id}`;
};

describe('Cursor transcripts', () => {
  const events = convert(files.flat());
  const state = replay(events);

  it('gives a valid stream: every event accepted, keys unique', () => {
    expectValidStream(events);
  });

  it('sends each state change once: no status repeats the state before it', () => {
    expectEachStateChangeOnce(events);
  });

  it('makes the session’s transcript a session and each sub-agent an agent under it, dated by its file', () => {
    for (const f of facts.values()) {
      const node = nodeOf(state, refOf(f.id));
      const times = timesOf(f.file);
      if (f.id === f.session) {
        expect([node.kind, node.created, node.state]).toEqual(['session', times.born, 'idle']);
        continue;
      }
      expect([f.id, node.kind, node.created]).toEqual([f.id, 'agent', times.born]);
      const parent = [...state.nodes.values()].find((n) => n.no === node.parentNo)!;
      expect([f.id, parent.ref]).toEqual([f.id, f.session]);
      expect([f.id, node.agentType, node.background, node.spawnCallId]).toEqual([
        f.id,
        f.task?.agentType ?? 'subagent',
        f.task?.background ?? false,
        f.task?.id ?? null,
      ]);
      expect([f.id, node.state]).toEqual([
        f.id,
        f.ended === undefined ? 'working' : f.ended === 'completed' ? 'completed' : 'canceled',
      ]);
      expect([f.id, node.ended]).toEqual([f.id, f.ended === undefined ? null : times.modified]);
    }
  });

  it('dates every event by its file’s times and names the provider', () => {
    const allowed = new Set([...facts.values()].flatMap((f) => Object.values(timesOf(f.file))));
    for (const e of events) {
      expect([e.key, allowed.has(e.created)]).toEqual([e.key, true]);
      expect(e.source).toEqual({
        provider: 'cursor',
        provider_version: 'unknown',
        adapter: 'cursor-transcript/1',
      });
    }
  });

  it('waits on a foreground sub-agent, raises the question AskQuestion asks, and reads TodoWrite', () => {
    const session = [...facts.values()].find((f) => f.id === f.session)!;
    const foreground = [...facts.values()].filter((f) => f.task && !f.task.background);
    const waits = events.filter((e) => e.type === 'wait.started');
    expect(waits.map((w) => [w.node, (w.payload as { on: string[] }).on])).toEqual(
      foreground.map((f) => [session.id, [refOf(f.id)]]),
    );
    const content = session.lines.flatMap(
      (l) => (l['message'] as { content?: Array<Record<string, unknown>> })?.content ?? [],
    );
    const ask = content.find((b) => b['name'] === 'AskQuestion')!['input'] as {
      questions: Array<{ prompt: string }>;
    };
    const raised = events.find((e) => e.type === 'attention.raised')!;
    expect(raised.payload).toEqual({ reason: 'question', message: ask.questions[0]!.prompt });
    expect(events.some((e) => e.type === 'attention.cleared' && e.node === session.id)).toBe(true);
    const todo = content.find((b) => b['name'] === 'TodoWrite')!['input'] as {
      todos: Array<{ id: string; content: string; status: string }>;
    };
    expect(events.find((e) => e.type === 'tasks.updated')!.payload).toEqual({ tasks: todo.todos });
  });

  it('property: any prefix of each transcript, arriving in any order, gives a valid stream, the same on re-read', () => {
    expectAnyArrivalValid(files, convert, 60);
  });
});
