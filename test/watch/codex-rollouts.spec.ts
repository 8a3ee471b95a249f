import { type SourceLine, codexAdapter } from '@graph-history/adapters';
import { LIMITS, type WatchEvent } from '@graph-history/domain';
import { codexFacts, rolloutFiles, rootOf } from './support/codex-facts';
import { convertChunks, expectAnyArrivalValid } from './support/chunked-convert';
import { expectValidStream, nodeOf, replay } from './support/graph-replay';

/**
 * The Codex adapter on rollouts shaped by Codex's own types (test/fixtures/codex, see its
 * README). Expected values are read from the raw files (support/codex-facts.ts).
 */
const convert = (...chunks: SourceLine[][]): WatchEvent[] => convertChunks(codexAdapter, chunks);

const facts = codexFacts();
const files = rolloutFiles();
const all = files.flatMap((f) => f.lines);
const refOf = (id: string): string => {
  const root = rootOf(facts, id);
  return root === id ? id : `${root}/${id}`;
};

describe('Codex rollouts', () => {
  const events = convert(all);

  it('gives a valid stream: every event accepted by validateBatch, keys unique', () => {
    expectValidStream(events);
  });

  it('makes each rollout without a sub-agent source a session, dated and placed by its session_meta', () => {
    const sessions = events.filter((e) => e.type === 'session.started');
    const roots = [...facts.values()].filter((f) => f.parentId === undefined);
    expect(sessions.map((e) => [e.node, e.created, e.payload]).sort()).toEqual(
      roots.map((f) => [f.id, f.metaTs, { cwd: f.cwd }]).sort(),
    );
  });

  it('makes each sub-agent rollout an agent under its parent thread, at the depth Codex recorded', () => {
    const state = replay(events);
    const agents = [...facts.values()].filter((f) => f.parentId !== undefined);
    expect(agents.length).toBeGreaterThan(0);
    for (const f of agents) {
      const spawned = events.find((e) => e.type === 'agent.spawned' && e.node === refOf(f.id));
      expect(spawned).toMatchObject({
        created: f.metaTs,
        payload: { parent: refOf(f.parentId!), agent_type: f.role ?? 'default', background: true },
      });
      let depth = 0;
      for (let at = nodeOf(state, refOf(f.id)); at.parentNo !== null; depth++) {
        at = state.nodes.get(at.parentNo)!;
      }
      expect([f.id, depth]).toEqual([f.id, f.depth]);
    }
  });

  it('dates every event by its own rollout line and names the Codex version', () => {
    for (const e of events) {
      const id = e.node.split('/').pop()!;
      const f = facts.get(id)!;
      expect([e.key, f.timestamps.has(e.created)]).toEqual([e.key, true]);
      expect(e.source).toEqual({
        provider: 'codex',
        provider_version: f.version,
        adapter: 'codex-rollout/1',
      });
    }
  });

  it('skips the parent history a forked child replays, and links it by the spawn call', () => {
    const forked = [...facts.values()].find((f) => f.forked)!;
    expect(forked.copyEnd).toBeGreaterThan(2);
    const fromChild = events.filter((e) => e.key.startsWith(`${forked.id}:`));
    const lineNos = fromChild.map((e) => Number(/:L(\d+):/.exec(e.key)![1]));
    expect(Math.min(...lineNos)).toBeGreaterThan(forked.copyEnd!);
    expect(fromChild.every((e) => e.node === refOf(forked.id))).toBe(true);
    const marker = forked.lines[forked.copyEnd! - 1]!.payload['call_id'];
    expect(
      events.find((e) => e.node === refOf(forked.id) && e.type === 'agent.spawned'),
    ).toMatchObject({
      payload: { spawn_call_id: marker, link_method: 'spawn_call_id' },
    });
    // the parent's own title and prompt are not sent a second time
    expect(events.filter((e) => e.type === 'title')).toHaveLength(
      [...facts.values()].filter((f) => f.parentId === undefined).length,
    );
  });

  it('turns wait_agent into the parent waiting on its children, and turn ends into states', () => {
    const state = replay(events);
    for (const f of facts.values()) {
      const waits = f.lines.filter(
        (l) => l.type === 'response_item' && l.payload['name'] === 'wait_agent',
      );
      const started = events.filter((e) => e.type === 'wait.started' && e.node === refOf(f.id));
      expect(started.map((e) => e.payload)).toEqual(
        waits.map((w) => ({
          on: (JSON.parse(w.payload['arguments'] as string) as { ids: string[] }).ids.map(refOf),
          reason: 'wait_agent',
        })),
      );
      const node = nodeOf(state, refOf(f.id));
      const last = [...f.lines]
        .reverse()
        .find(
          (l) =>
            l.type === 'event_msg' &&
            /^(task_complete|turn_aborted)$/.test(String(l.payload['type'])),
        )!;
      const expected =
        f.parentId === undefined
          ? 'idle'
          : last.payload['type'] === 'task_complete'
            ? 'completed'
            : 'canceled';
      expect([f.id, node.state]).toEqual([f.id, expected]);
    }
  });

  it('raises attention on an approval request and clears it when the command goes on', () => {
    const raised = events.filter((e) => e.type === 'attention.raised');
    const requests = [...facts.values()].flatMap((f) =>
      f.lines.filter((l) => l.payload['type'] === 'exec_approval_request').map(() => refOf(f.id)),
    );
    expect(raised.map((e) => [e.node, e.payload.reason]).sort()).toEqual(
      requests.map((r) => [r, 'permission']).sort(),
    );
    const state = replay(events);
    for (const ref of requests) expect(nodeOf(state, ref).attention).toBeNull();
  });

  it('keeps the history a session the user forked starts with (no marker closes it)', () => {
    const id = '00000000-0000-7000-8000-00000000f00d';
    const file = { path: `2026/01/01/rollout-2026-01-01T00-00-00-${id}.jsonl`, id, group: id };
    const parent = '00000000-0000-7000-8000-00000000beef';
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const lines = [
      {
        type: 'session_meta',
        payload: { id, cwd: '/w', cli_version: '0.116.0', forked_from_id: parent },
      },
      { type: 'session_meta', payload: { id: parent, cwd: '/w', cli_version: '0.116.0' } },
      { type: 'event_msg', payload: { type: 'user_message', message: 'old prompt' } },
      { type: 'event_msg', payload: { type: 'user_message', message: 'new prompt' } },
    ].map((l, n) => ({ file, lineNo: n + 1, text: JSON.stringify({ ...l, timestamp: at(n) }) }));
    const out = convert(lines);
    expectValidStream(out);
    expect(out.filter((e) => e.type === 'status').map((e) => e.payload)).toEqual([
      { state: 'working', summary: 'old prompt' },
      { state: 'working', summary: 'new prompt' },
    ]);
  });

  it('bounds texts and depth: a huge prompt and a chain of 40 nested agents still make a valid stream', () => {
    const ids = Array.from(
      { length: 41 },
      (_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    );
    const lines: SourceLine[] = ids.flatMap((id, i) => {
      const file = { path: `2026/01/01/rollout-2026-01-01T00-00-00-${id}.jsonl`, id, group: id };
      const source =
        i === 0
          ? 'cli'
          : { subagent: { thread_spawn: { parent_thread_id: ids[i - 1], depth: i } } };
      const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, i, s)).toISOString();
      return [
        {
          type: 'session_meta',
          payload: { id, cwd: '/w', cli_version: '0.116.0', source },
          timestamp: at(0),
        },
        {
          type: 'event_msg',
          payload: { type: 'user_message', message: 'x'.repeat(300_000) },
          timestamp: at(1),
        },
      ].map((l, n) => ({ file, lineNo: n + 1, text: JSON.stringify(l) }));
    });
    const out = convert(lines);
    expectValidStream(out);
    expect(out.filter((e) => e.type === 'agent.spawned')).toHaveLength(40);
    for (const e of out) expect(JSON.stringify(e.payload).length).toBeLessThan(LIMITS.payloadText);
    const state = replay(out);
    const deepest = Math.max(...[...state.nodes.values()].map((n) => n.depth ?? 0));
    expect(deepest).toBeLessThanOrEqual(LIMITS.treeDepth);
  });

  it('property: any prefix of each rollout, arriving in any order, gives a valid stream, the same on re-read', () => {
    expectAnyArrivalValid(
      files.map((f) => f.lines),
      convert,
      60,
    );
  });
});
