import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { FIXTURES, fixtureLines } from './support/fixture-lines';
import { type ApiNode, LiveStack, watchGraphKey } from './support/live-stack';
import { transcriptFacts } from './support/transcript-facts';

/**
 * The whole path with the BUILT apps (`pnpm build` first): a transcript grows on disk, the watcher
 * follows it, the ingestor stores and applies the events, and the read API shows the new nodes.
 */
describe('watch → ingestor → read API, live', () => {
  const SESSION = 'fa812bfe-b295-4cca-9c2f-fdf01028cb46';
  const PROJECT = '-home-USER-projects-live';
  let GRAPH: string;
  const suite = LiveStack.forSuite('watch-live');

  const read = <T>(path: string) => suite.stack.read<T>(path);
  const until = <T>(what: string, probe: () => Promise<T | undefined>) =>
    suite.stack.until(what, probe);

  type NodeList = { data: ApiNode[] };

  it('shows appended transcript lines through the read API', async () => {
    GRAPH = await watchGraphKey(suite.tmp, PROJECT);
    const project = join(suite.tmp, 'projects', PROJECT);
    mkdirSync(project, { recursive: true });
    const write = (lines: SourceLine[]) =>
      lines.forEach((line) => {
        const path = join(project, line.file.path);
        mkdirSync(dirname(path), { recursive: true });
        appendFileSync(path, `${line.text}\n`);
      });
    const all = fixtureLines(claudeCodeAdapter, join(FIXTURES, 'v2-subagent-files'));
    const main = all.filter((l) => l.file.id === SESSION);
    const agents = all.filter((l) => l.file.id !== SESSION);
    const firstSpawn = main.findIndex((l) => l.text.includes('"name":"Task"'));

    const controller = new AbortController();
    const running = new WatchRunner(
      claudeCodeAdapter,
      suite.stack.watchOptions(suite.tmp, PROJECT),
      { info: () => undefined, warn: (m) => process.stderr.write(`watch warn: ${m}\n`) },
    ).run(controller.signal);

    try {
      write(main.slice(0, firstSpawn));
      const sessionOnly = await until('the session node', async () => {
        const nodes = await read<NodeList>(`/graphs/gph_${GRAPH}/nodes`);
        return nodes.data.length === 1 ? nodes : undefined;
      });
      expect(sessionOnly.data[0]).toMatchObject({
        provider_ref: SESSION,
        kind: 'session',
        state: 'working',
      });

      write(main.slice(firstSpawn, firstSpawn + 3));
      write(agents.filter((l) => l.file.path.includes('a93ccab')));
      const withAgent = await until('the first agent', async () => {
        const nodes = await read<NodeList>(`/graphs/gph_${GRAPH}/nodes`);
        return nodes.data.length === 2 ? nodes : undefined;
      });
      expect(withAgent.data[1]).toMatchObject({
        provider_ref: `${SESSION}/a93ccab`,
        kind: 'agent',
        state: 'working',
        ended: null,
      });

      write(main.slice(firstSpawn + 3));
      write(agents.filter((l) => !l.file.path.includes('a93ccab')));
      const done = await until('every agent finished and the session idle', async () => {
        const nodes = await read<NodeList>(`/graphs/gph_${GRAPH}/nodes`);
        const settled =
          nodes.data.length === 3 &&
          nodes.data.every((n) =>
            n.kind === 'agent' ? n.state === 'completed' : n.state === 'idle',
          );
        return settled ? nodes : undefined;
      });
      const spawns = transcriptFacts(
        join(FIXTURES, 'v2-subagent-files'),
        `${SESSION}.jsonl`,
      ).spawns;
      expect(done.data.filter((n) => n.kind === 'agent').map((n) => n.spawn_call_id)).toEqual(
        spawns.map((s) => s.id),
      );
    } finally {
      controller.abort();
    }
    const sent = (await running).get(GRAPH)!;
    expect(sent).toMatchObject({ duplicates: 0, skipped: 0 });
    type Graph = {
      retention: { event_count: number };
      counts: { sessions: number; agents: number };
    };
    const graph = await until('every acknowledged event to be readable', async () => {
      const g = await read<Graph>(`/graphs/gph_${GRAPH}`);
      return g.retention.event_count === sent.accepted ? g : undefined;
    });
    expect(graph.counts).toMatchObject({ sessions: 1, agents: 2 });
  }, 120_000);
});
