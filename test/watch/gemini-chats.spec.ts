import { type SourceLine, geminiAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import { convertChunks, expectAnyArrivalValid } from './support/chunked-convert';
import { expectValidStream, nodeOf, replay } from './support/graph-replay';
import { expectEachStateChangeOnce } from './support/state-changes';
import {
  GEMINI_FIXTURES,
  GEMINI_RECORDED_FIXTURES,
  chatFiles,
  chatLines,
  geminiFacts,
} from './support/gemini-facts';

/**
 * The Gemini CLI adapter on chat files shaped by gemini-cli's own ChatRecordingService types
 * (test/fixtures/gemini-cli) and on chat files written by that service itself
 * (test/fixtures/gemini-cli-recorded); see their READMEs. Expected values are read from the raw
 * files.
 */
const convert = (...chunks: SourceLine[][]): WatchEvent[] => convertChunks(geminiAdapter, chunks);

/** The adapter's id of a chat file: its name, or `<session folder>/<agent id>`. */
const fileId = (f: { file: string }): string =>
  f.file.replace(/^chats\//, '').replace(/\.jsonl$/, '');

const FIXTURE_SETS = [
  { name: 'hand-made after its types', root: GEMINI_FIXTURES, project: 'shop' },
  { name: 'recorded by gemini-cli-core', root: GEMINI_RECORDED_FIXTURES, project: 'checkout' },
];

describe.each(FIXTURE_SETS)('Gemini CLI chats ($name)', ({ root, project }) => {
  const facts = geminiFacts(root);
  const refOf = (id: string): string => {
    const f = facts.get(id)!;
    return f.kind === 'main' ? id : `${f.sessionId}/${id}`;
  };
  const events = convert(chatLines(project, root));
  const state = replay(events);

  it('gives a valid stream: every event accepted, keys unique', () => {
    expectValidStream(events);
  });

  it('sends each state change once: no status repeats the state before it', () => {
    expectEachStateChangeOnce(events);
  });

  it('makes each main chat a session and each sub-agent an agent under the chat that called it', () => {
    for (const f of [...facts.values()].filter((c) => c.project === project)) {
      const node = nodeOf(state, refOf(f.id));
      expect([f.id, node.kind, node.created]).toEqual([
        f.id,
        f.kind === 'main' ? 'session' : 'agent',
        f.startTs,
      ]);
      if (f.kind === 'main') continue;
      const parent = [...state.nodes.values()].find((n) => n.no === node.parentNo)!;
      expect([f.id, parent.ref]).toEqual([f.id, refOf(f.calledBy!.chat)]);
      expect([f.id, node.agentType]).toEqual([f.id, f.calledBy!.agentName]);
      const end =
        f.calledBy!.status === 'cancelled'
          ? 'canceled'
          : f.calledBy!.status === 'error' || (f.calledBy!.terminateReason ?? 'GOAL') !== 'GOAL'
            ? 'failed'
            : 'completed';
      expect([f.id, node.state]).toEqual([f.id, end]);
    }
  });

  it('dates every event by its own record and names the provider', () => {
    for (const e of events) {
      // keys start with the id of the file whose record made the event (a creation: its ref)
      const prefix = e.key.replace(/:(L\d+:\d+|started|spawned|usage:[^:]+)$/, '');
      const chat = [...facts.values()].find((f) => prefix === refOf(f.id) || prefix === fileId(f))!;
      expect([e.key, chat.timestamps.has(e.created)]).toEqual([e.key, true]);
      expect(e.source).toEqual({
        provider: 'gemini-cli',
        provider_version: 'unknown',
        adapter: 'gemini-chat/1',
      });
    }
  });

  it('turns a sub-agent call into its caller waiting on it, and write_todos into tasks', () => {
    const session = [...facts.values()].find((f) => f.project === project && f.kind === 'main')!;
    const waits = events.filter((e) => e.type === 'wait.started');
    const ended = events.filter((e) => e.type === 'wait.ended');
    const agents = [...facts.values()].filter(
      (f) => f.project === project && f.kind === 'subagent',
    );
    expect(waits.map((w) => [w.node, (w.payload as { on: string[] }).on[0]]).sort()).toEqual(
      agents.map((a) => [refOf(a.calledBy!.chat), refOf(a.id)]).sort(),
    );
    expect(ended).toHaveLength(agents.length);
    const todo = session.records
      .flatMap((r) => (r['toolCalls'] as Array<Record<string, unknown>> | undefined) ?? [])
      .find((c) => c['name'] === 'write_todos')!;
    const tasks = events.find((e) => e.type === 'tasks.updated')!;
    expect(tasks.payload).toEqual({
      tasks: (todo['args'] as { todos: Array<{ description: string; status: string }> }).todos.map(
        (t) => ({ content: t.description, status: t.status }),
      ),
    });
    const top = nodeOf(state, session.id);
    const summary = session.records
      .map((r) => (r['$set'] as { summary?: string } | undefined)?.summary)
      .filter((t) => t !== undefined)
      .at(-1);
    expect([top.state, top.title]).toEqual(['idle', summary]);
  });

  it('reads a message written again (it grew) once: no duplicate text, one event per tool call', () => {
    const lines = chatLines(project, root);
    const twice = convert([...lines, ...lines.map((l) => ({ ...l, lineNo: l.lineNo + 1000 }))]);
    const once = events.filter((e) => e.type !== 'activity').length;
    expect(twice.filter((e) => e.type !== 'activity')).toHaveLength(once);
  });

  it('property: any prefix of each chat file, arriving in any order, gives a valid stream, the same on re-read', () => {
    const files = chatFiles(project, root);
    expectAnyArrivalValid(files, convert, 60);
  });
});

describe('Gemini CLI chats, crafted lines', () => {
  it('puts a session idle once when two answers without tool calls follow each other', () => {
    const id = 'c0ffee00-7b41-4c8e-9d2a-5e6f70811a01';
    const [file] = geminiAdapter.detect([`chats/session-2026-03-02T10-00-${id.slice(0, 8)}.jsonl`]);
    const at = (s: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, s)).toISOString();
    const records = [
      { sessionId: id, projectHash: 'x', startTime: at(0), lastUpdated: at(0), kind: 'main' },
      { id: 'u1', timestamp: at(1), type: 'user', content: [{ text: 'Is the build green?' }] },
      { id: 'g1', timestamp: at(2), type: 'gemini', content: 'Yes.' },
      { id: 'g2', timestamp: at(3), type: 'gemini', content: 'All 12 checks passed.' },
    ];
    const out = convert(
      records.map((r, i) => ({ file: file!, lineNo: i + 1, text: JSON.stringify(r) })),
    );
    expectValidStream(out);
    expect(out.filter((e) => e.type === 'status').map((e) => e.payload)).toEqual([
      { state: 'working', summary: 'Is the build green?' },
      { state: 'idle', summary: 'Yes.' },
    ]);
    expect(out.filter((e) => e.type === 'activity').map((e) => e.payload)).toEqual([
      { summary: 'All 12 checks passed.' },
    ]);
  });
});
