import { type SourceLine, codexAdapter } from '@graph-history/adapters';
import { LIMITS, type WatchEvent } from '@graph-history/domain';
import {
  CODEX_SETS,
  type ThreadFacts,
  codexFacts,
  rolloutFiles,
  rootOf,
} from './support/codex-facts';
import { convertChunks, expectAnyArrivalValid } from './support/chunked-convert';
import { expectValidStream, nodeOf, replay } from './support/graph-replay';
import { expectEachStateChangeOnce } from './support/state-changes';

/**
 * The Codex adapter on each set of rollouts (test/fixtures/codex*, each with its README): hand-made
 * after Codex's types, written by Codex itself, and real. Expected values are read from the raw
 * files (support/codex-facts.ts).
 */
const convert = (...chunks: SourceLine[][]): WatchEvent[] => convertChunks(codexAdapter, chunks);

type Line = ThreadFacts['lines'][number];
const argsOf = (l: Line): Record<string, unknown> =>
  JSON.parse(String(l.payload['arguments'])) as Record<string, unknown>;
const isTurnEnd = (l: Line): boolean =>
  l.type === 'event_msg' && /^(task_complete|turn_aborted)$/.test(String(l.payload['type']));

describe.each(CODEX_SETS)('Codex rollouts $name', ({ root }) => {
  const facts = codexFacts(root);
  const files = rolloutFiles(root);
  const events = convert(files.flatMap((f) => f.lines));
  const refOf = (id: string): string => {
    const session = rootOf(facts, id);
    return session === id ? id : `${session}/${id}`;
  };
  /** When a thread's own last turn ended (ms), if it did. */
  const endOf = (f: ThreadFacts): number | undefined => {
    const i = f.lines.map((l, n) => n >= (f.copyEnd ?? 0) && isTurnEnd(l)).lastIndexOf(true);
    return i < 0 ? undefined : f.lineTs[i];
  };

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
    for (const f of [...facts.values()].filter((t) => t.parentId !== undefined)) {
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

  it('titles each session once, by its first prompt', () => {
    const titles = events.filter((e) => e.type === 'title');
    const roots = [...facts.values()].filter((f) => f.parentId === undefined);
    expect(titles.map((e) => e.node).sort()).toEqual(roots.map((f) => f.id).sort());
  });

  it('turns wait_agent into the parent waiting on its running children, and turn ends into states', () => {
    const state = replay(events);
    for (const f of facts.values()) {
      const own = f.lines.slice(f.copyEnd ?? 0);
      const ownTs = f.lineTs.slice(f.copyEnd ?? 0);
      const waits = own.flatMap((l, i) => {
        if (l.type !== 'response_item' || l.payload['name'] !== 'wait_agent') return [];
        const args = argsOf(l);
        const ids = (args['ids'] ?? args['targets']) as string[];
        // a child that had ended by then is not waited on
        const on = ids.filter((id) => (endOf(facts.get(id)!) ?? Infinity) > ownTs[i]!);
        return on.length > 0 ? [{ on: on.map(refOf), reason: 'wait_agent' }] : [];
      });
      const started = events.filter((e) => e.type === 'wait.started' && e.node === refOf(f.id));
      expect([f.id, started.map((e) => e.payload)]).toEqual([f.id, waits]);
      expect([f.id, nodeOf(state, refOf(f.id)).state]).toEqual([f.id, f.state]);
    }
  });

  it('reports each thread’s tokens once: they add up to its last token_count total, less a fork’s copy', () => {
    type Usage = { input_tokens: number; output_tokens: number };
    const totalOf = (l: Line | undefined): number => {
      const t = (l?.payload['info'] as { total_token_usage?: Usage } | null)?.total_token_usage;
      return t ? t.input_tokens + t.output_tokens : 0;
    };
    const lastCount = (lines: Line[]) =>
      [...lines].reverse().find((l) => l.payload['type'] === 'token_count' && l.payload['info']);
    for (const f of facts.values()) {
      const reported = events
        .filter((e) => e.type === 'usage.reported' && e.node === refOf(f.id))
        .reduce((sum, e) => {
          const u = e.payload as {
            input_tokens: number;
            cache_read_tokens?: number;
            output_tokens: number;
          };
          return sum + u.input_tokens + (u.cache_read_tokens ?? 0) + u.output_tokens;
        }, 0);
      const copied = totalOf(lastCount(f.lines.slice(0, f.copyEnd ?? 0)));
      expect([f.id, reported]).toEqual([f.id, totalOf(lastCount(f.lines)) - copied]);
    }
  });

  it('sends each state change once: no status repeats the state before it', () => {
    expectEachStateChangeOnce(events);
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

  it('property: any prefix of each rollout, arriving in any order, gives a valid stream, the same on re-read', () => {
    expectAnyArrivalValid(
      files.map((f) => f.lines),
      convert,
      30,
    );
  });
});

describe.each(CODEX_SETS.filter((set) => [...codexFacts(set.root).values()].some((f) => f.forked)))(
  'Codex forks $name',
  ({ root }) => {
    const facts = codexFacts(root);
    const events = convert(rolloutFiles(root).flatMap((f) => f.lines));
    const forked = [...facts.values()].find((f) => f.forked)!;
    const ref = `${rootOf(facts, forked.id)}/${forked.id}`;

    it('skips the parent history a forked child replays, and links it to the spawn call', () => {
      expect(forked.copyEnd).toBeGreaterThan(2);
      const fromChild = events.filter((e) => e.key.startsWith(`${forked.id}:`));
      const lineNos = fromChild.map((e) => Number(/:L(\d+):/.exec(e.key)![1]));
      expect(Math.min(...lineNos)).toBeGreaterThan(forked.copyEnd!);
      expect(fromChild.every((e) => e.node === ref)).toBe(true);
      // the spawn call: the copy's closing output, else the parent's call whose output names it
      const parent = facts.get(forked.parentId!)!;
      const call = forked.copyEndsWithMarker
        ? forked.lines[forked.copyEnd! - 1]!.payload['call_id']
        : parent.lines.find(
            (l) =>
              l.payload['type'] === 'function_call_output' &&
              String(l.payload['output']).includes(forked.id),
          )!.payload['call_id'];
      expect(events.find((e) => e.node === ref && e.type === 'agent.spawned')).toMatchObject({
        payload: { spawn_call_id: call },
      });
      // the parent's own title and prompt are not sent a second time
      expect(events.filter((e) => e.type === 'title')).toHaveLength(
        [...facts.values()].filter((f) => f.parentId === undefined).length,
      );
    });
  },
);

describe('Codex rollouts, crafted lines', () => {
  const id = '00000000-0000-7000-8000-00000000cafe';
  const file = { path: `2026/01/01/rollout-2026-01-01T00-00-00-${id}.jsonl`, id, group: id };
  const crafted = (lines: Array<Record<string, unknown>>): SourceLine[] =>
    [{ type: 'session_meta', payload: { id, cwd: '/w', cli_version: '0.116.0' } }, ...lines].map(
      (l, n) => ({
        file,
        lineNo: n + 1,
        text: JSON.stringify({
          ...l,
          timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
        }),
      }),
    );
  const msg = (payload: Record<string, unknown>) => ({ type: 'event_msg', payload });

  it('puts a session idle once when a turn ends twice (aborted, then complete)', () => {
    const out = convert(
      crafted([
        msg({ type: 'task_started' }),
        msg({ type: 'user_message', message: 'fix it' }),
        msg({ type: 'turn_aborted', reason: 'interrupted' }),
        msg({ type: 'task_complete', last_agent_message: 'Stopped.' }),
        msg({ type: 'task_complete' }),
      ]),
    );
    expectValidStream(out);
    expect(out.filter((e) => e.type === 'status').map((e) => e.payload)).toEqual([
      { state: 'working', summary: 'fix it' },
      { state: 'idle', summary: 'Interrupted by the user.' },
    ]);
    // the second end's words still reach the headline, without a second state change
    expect(out.filter((e) => e.type === 'activity').map((e) => e.payload)).toEqual([
      { summary: 'Stopped.' },
    ]);
  });

  it('turns update_plan into the session’s task list', () => {
    const plan = [
      { step: 'Find the greeting', status: 'completed' },
      { step: 'Fix its typo', status: 'in_progress' },
    ];
    const out = convert(
      crafted([
        msg({ type: 'user_message', message: 'fix it' }),
        {
          type: 'response_item',
          payload: {
            type: 'function_call',
            name: 'update_plan',
            call_id: 'c1',
            arguments: JSON.stringify({ plan }),
          },
        },
      ]),
    );
    expect(out.find((e) => e.type === 'tasks.updated')?.payload).toEqual({
      tasks: plan.map((p) => ({ content: p.step, status: p.status })),
    });
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
});
