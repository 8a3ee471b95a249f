import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeAdapter } from '@graph-history/adapters';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { FIXTURES, fixtureLines } from './support/fixture-lines';
import { LiveStack, watchGraphKey } from './support/live-stack';
import { type TranscriptFacts, transcriptFacts } from './support/transcript-facts';

/**
 * REAL transcripts only (test/fixtures/claude-code, see FORMAT.md): three sessions of Claude Code
 * 2.1.39 and 1.0.108 put in ONE project folder, as several sessions of a project are, sent with
 * `watch --once` and read back through the read API. What is expected is read from the raw
 * transcripts (support/transcript-facts.ts), not from the adapter.
 */
const SESSIONS = [
  { dir: 'v2-subagent-files', id: 'fa812bfe-b295-4cca-9c2f-fdf01028cb46' },
  { dir: 'v2-prefix-general-purpose', id: 'ae4a77f8-aedd-4bc1-888f-c94edc91af04' },
  { dir: 'v1-inline-sidechains', id: '5c0375b4-57a5-4f26-b12d-d022ee4e51b7' },
].map((s) => ({ ...s, facts: transcriptFacts(join(FIXTURES, s.dir), `${s.id}.jsonl`) }));

interface ApiTask {
  status: string;
}

describe('watch --once over real transcripts of several sessions, read back through the API', () => {
  const suite = LiveStack.forSuite('watch-real');
  const sessionOf = (ref: string) => ref.split('/')[0]!;

  it('one agent per spawn at the right parent, types, tasks, and every time the transcript’s own', async () => {
    const project = join(suite.tmp, 'projects', 'real');
    mkdirSync(project, { recursive: true });
    for (const s of SESSIONS) cpSync(join(FIXTURES, s.dir), project, { recursive: true });
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (m: string) => void warnings.push(m) };
    const options = suite.stack.watchOptions(suite.tmp, 'real', { once: true });
    const graph = await watchGraphKey(suite.tmp, 'real');
    await new WatchRunner(claudeCodeAdapter, options, log).run(new AbortController().signal);
    expect(warnings).toEqual([]);

    const count = SESSIONS.reduce((n, s) => {
      const state = claudeCodeAdapter.initialState();
      const lines = fixtureLines(claudeCodeAdapter, join(FIXTURES, s.dir));
      return (
        n +
        claudeCodeAdapter.toEvents(state, lines).events.length +
        claudeCodeAdapter.flush(state).events.length
      );
    }, 0);
    const events = await suite.stack.until('every event', async () => {
      const all = await suite.stack.events(graph);
      return all.length === count ? all : undefined;
    });
    const nodes = await suite.stack.nodes(graph);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const factsOf = new Map<string, TranscriptFacts>(SESSIONS.map((s) => [s.id, s.facts]));

    for (const e of events) {
      const ref = byId.get(e.node_id)!.provider_ref;
      expect({ ref, created: factsOf.get(sessionOf(ref))!.timestamps.has(e.created) }).toEqual({
        ref,
        created: true,
      });
    }
    for (const node of nodes) {
      const own = events.filter((e) => e.node_id === node.id).map((e) => e.created);
      expect([node.provider_ref, node.last_event]).toEqual([node.provider_ref, Math.max(...own)]);
    }

    for (const { id, facts } of SESSIONS) {
      const session = nodes.find((n) => n.provider_ref === id)!;
      expect([id, session.kind, session.created]).toEqual([id, 'session', facts.firstTs]);
      const agents = nodes.filter((n) => n.parent_id === session.id);
      const spawned = facts.spawns.filter((s) => s.result && !s.result.isError);
      expect(
        agents
          .map((a) => [a.provider_ref, a.spawn_call_id, a.agent_type, a.created, a.state])
          .sort(),
      ).toEqual(
        spawned
          .map((s) => [
            `${id}/${s.result!.agentId ?? s.id}`,
            s.id,
            s.subagentType,
            s.ts,
            'completed',
          ])
          .sort(),
      );
      const read = await suite.stack.read<{ tasks: { data: ApiTask[] } }>(
        `/graphs/gph_${graph}/nodes/${session.id}?expand[]=tasks`,
      );
      expect(read.tasks.data.map((t) => t.status)).toEqual(
        (facts.lastTodos ?? []).map((t) => t.status),
      );
    }
    expect(nodes.filter((n) => n.kind === 'agent')).toHaveLength(
      SESSIONS.reduce((n, s) => n + s.facts.spawns.filter((c) => !c.result?.isError).length, 0),
    );
  }, 180_000);
});
