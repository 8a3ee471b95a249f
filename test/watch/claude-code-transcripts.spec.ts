import { join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import type { WatchEvent } from '@graph-history/domain';
import { FIXTURES, fixtureLines, listPaths } from './support/fixture-lines';
import { expectValidStream, nodeOf, replay } from './support/graph-replay';
import { transcriptFacts } from './support/transcript-facts';

const V2 = join(FIXTURES, 'v2-subagent-files');
const V2_SESSION = 'fa812bfe-b295-4cca-9c2f-fdf01028cb46';
const V1 = join(FIXTURES, 'v1-inline-sidechains');
const V1_SESSION = '5c0375b4-57a5-4f26-b12d-d022ee4e51b7';

function convert(lines: readonly SourceLine[]): WatchEvent[] {
  const state = claudeCodeAdapter.initialState();
  const out = claudeCodeAdapter.toEvents(state, lines);
  const flushed = claudeCodeAdapter.flush(state);
  expect(out.problems).toEqual([]);
  expect(flushed.problems).toEqual([]);
  return [...out.events, ...flushed.events];
}

const ofType = <T extends WatchEvent['type']>(events: WatchEvent[], type: T) =>
  events.filter((e): e is Extract<WatchEvent, { type: T }> => e.type === type);

/** The order a live session appends lines in: by the transcript clock, file order for ties. */
function appendOrder(lines: readonly SourceLine[]): SourceLine[] {
  const last = new Map<string, number>();
  const timed = lines.map((line, i) => {
    const parsed = JSON.parse(line.text) as { timestamp?: string };
    const ts = parsed.timestamp ? Date.parse(parsed.timestamp) : (last.get(line.file.id) ?? 0);
    last.set(line.file.id, ts);
    return { line, ts, i };
  });
  return timed.sort((a, b) => a.ts - b.ts || a.i - b.i).map((t) => t.line);
}

describe('Claude Code 2.x transcript with sub-agent files', () => {
  const lines = fixtureLines(claudeCodeAdapter, V2);
  const events = convert(lines);
  const facts = transcriptFacts(V2, `${V2_SESSION}.jsonl`);

  it('reads the main file and the two Explore agents, not the compaction run', () => {
    const files = claudeCodeAdapter.detect(listPaths(V2)).map((f) => f.path);
    expect(files).toEqual([
      `${V2_SESSION}.jsonl`,
      `${V2_SESSION}/subagents/agent-a93ccab.jsonl`,
      `${V2_SESSION}/subagents/agent-aa84377.jsonl`,
    ]);
    expect(events.some((e) => e.node.includes('acompact'))).toBe(false);
  });

  it('produces a stream the ingest endpoint accepts, with unique keys', () => {
    expectValidStream(events);
  });

  it('starts the session node at the first transcript line', () => {
    const [started, ...others] = ofType(events, 'session.started');
    expect(others).toEqual([]);
    expect(started).toMatchObject({
      node: V2_SESSION,
      created: facts.firstTs,
      payload: { cwd: '/home/USER/projects/spotter-worktrees/spotter-a0y' },
    });
    expect(started!.source).toEqual({
      provider: 'claude-code',
      provider_version: '2.1.39',
      adapter: 'claude-code-jsonl/1',
    });
  });

  it('creates exactly one agent per Task spawn, tied by spawn call id', () => {
    const spawned = ofType(events, 'agent.spawned');
    expect(facts.spawns).toHaveLength(2);
    expect(spawned).toHaveLength(facts.spawns.length);
    for (const call of facts.spawns) {
      const agent = spawned.find((e) => e.payload.spawn_call_id === call.id);
      expect(agent).toMatchObject({
        node: `${V2_SESSION}/${call.result!.agentId}`,
        created: call.ts,
        payload: {
          parent: V2_SESSION,
          agent_type: call.subagentType,
          purpose: call.description,
          background: false,
          link_method: 'spawn_call_id',
        },
      });
    }
  });

  it('ends each foreground agent when its result arrives, and routes its own file to it', () => {
    for (const call of facts.spawns) {
      const ref = `${V2_SESSION}/${call.result!.agentId}`;
      const ended = ofType(events, 'ended').filter((e) => e.node === ref);
      expect(ended).toHaveLength(1);
      expect(ended[0]).toMatchObject({ created: call.result!.ts, payload: { state: 'completed' } });
      expect(events.filter((e) => e.node === ref && e.type === 'activity').length).toBeGreaterThan(
        0,
      );
    }
  });

  it('dates every event with a transcript timestamp', () => {
    for (const ev of events) expect(facts.timestamps.has(ev.created)).toBe(true);
  });

  it('opens a wait of the session on each foreground agent and closes it before the agent ends', () => {
    for (const call of facts.spawns) {
      const ref = `${V2_SESSION}/${call.result!.agentId}`;
      const i = (pred: (e: WatchEvent) => boolean) => events.findIndex(pred);
      const spawned = i((e) => e.type === 'agent.spawned' && e.node === ref);
      const started = i(
        (e) => e.type === 'wait.started' && e.node === V2_SESSION && e.payload.on.includes(ref),
      );
      const ended = i(
        (e) => e.type === 'wait.ended' && e.node === V2_SESSION && !!e.payload.on?.includes(ref),
      );
      const finished = i((e) => e.type === 'ended' && e.node === ref);
      expect(events[started]).toMatchObject({ payload: { on: [ref], reason: 'spawn' } });
      expect([spawned < started, started < ended, ended < finished]).toEqual([true, true, true]);
    }
  });

  it('ends idle, with the agents finished under the session', () => {
    const graph = replay(events);
    const session = nodeOf(graph, V2_SESSION);
    expect(session).toMatchObject({ kind: 'session', state: 'idle', childCount: 2, blocked: null });
    expect(session.title).toMatch(/^Work on bead spotter-a0y/);
    for (const call of facts.spawns) {
      expect(nodeOf(graph, `${V2_SESSION}/${call.result!.agentId}`)).toMatchObject({
        parentNo: session.no,
        state: 'completed',
        ended: call.result!.ts,
      });
    }
  });

  it('gives the same events when the lines arrive one small chunk at a time across restarts', () => {
    let state = claudeCodeAdapter.initialState();
    const chunked: WatchEvent[] = [];
    const ordered = appendOrder(lines);
    for (let i = 0; i < ordered.length; i += 37) {
      chunked.push(...claudeCodeAdapter.toEvents(state, ordered.slice(i, i + 37)).events);
      state = JSON.parse(JSON.stringify(state)) as typeof state;
    }
    chunked.push(...claudeCodeAdapter.flush(state).events);
    expect(chunked).toEqual(events);
  });
});

describe('Claude Code 1.0.x transcript with inline sidechains', () => {
  const lines = fixtureLines(claudeCodeAdapter, V1);
  const events = convert(lines);
  const facts = transcriptFacts(V1, `${V1_SESSION}.jsonl`);

  it('produces a stream the ingest endpoint accepts', () => {
    expectValidStream(events);
    expect(new Set(events.map((e) => e.source.provider_version))).toEqual(new Set(['1.0.108']));
  });

  it('creates one agent per successful Task spawn, tied by its prompt, none for the refused call', () => {
    const succeeded = facts.spawns.filter((s) => s.result && !s.result.isError);
    expect(facts.spawns).toHaveLength(3);
    expect(succeeded).toHaveLength(2);
    const spawned = ofType(events, 'agent.spawned');
    expect(spawned.map((e) => e.payload.spawn_call_id).sort()).toEqual(
      succeeded.map((s) => s.id).sort(),
    );
    for (const call of succeeded) {
      const agent = spawned.find((e) => e.payload.spawn_call_id === call.id);
      expect(agent).toMatchObject({
        node: `${V1_SESSION}/${call.id}`,
        created: call.ts,
        payload: {
          parent: V1_SESSION,
          agent_type: call.subagentType,
          purpose: call.description,
          link_method: 'inferred',
        },
      });
    }
  });

  it('attributes sidechain lines to their agent and ends it with its result', () => {
    const graph = replay(events);
    for (const call of facts.spawns.filter((s) => s.result && !s.result.isError)) {
      const ref = `${V1_SESSION}/${call.id}`;
      expect(events.some((e) => e.node === ref && e.type === 'activity')).toBe(true);
      expect(nodeOf(graph, ref)).toMatchObject({
        state: 'completed',
        ended: call.result!.ts,
        depth: 1,
      });
    }
  });

  it('counts the tasks of the last todo snapshot', () => {
    const todos = facts.lastTodos!;
    const count = (status: string) => todos.filter((t) => t.status === status).length;
    const session = nodeOf(replay(events), V1_SESSION);
    expect(session.taskCounts).toEqual({
      total: todos.length,
      pending: count('pending'),
      in_progress: count('in_progress'),
      completed: count('completed'),
      open: count('pending') + count('in_progress'),
    });
    expect(session.title).toContain('/orchestrator');
  });

  it('dates every event with a transcript timestamp', () => {
    for (const ev of events) expect(facts.timestamps.has(ev.created)).toBe(true);
  });
});
