import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type SourceLine, claudeCodeAdapter } from '@graph-history/adapters';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { type TestDatabase, createTestDatabase } from '../support/test-database';
import { type TestKey, createKey } from '../ingestor/support/api-keys';
import { deleteQueueKeys, uniqueQueuePrefix } from '../ingestor/support/ingestor-harness';
import { freePort } from '../support/free-port';
import { ServiceProcess } from '../support/service-process';
import { FIXTURES, fixtureLines } from './support/fixture-lines';
import { transcriptFacts } from './support/transcript-facts';

/**
 * The whole path with the BUILT apps (`pnpm build` first): a transcript grows on disk, the watcher
 * follows it, the ingestor stores and applies the events, and the read API shows the new nodes.
 */
describe('watch → ingestor → read API, live', () => {
  const SESSION = 'fa812bfe-b295-4cca-9c2f-fdf01028cb46';
  const PROJECT = '-home-USER-projects-live';
  const GRAPH = 'home-USER-projects-live';
  let t: TestDatabase;
  let key: TestKey;
  let queuePrefix: string;
  let ingestor: ServiceProcess;
  let api: ServiceProcess;
  let tmp: string;

  beforeAll(async () => {
    t = await createTestDatabase();
    key = await createKey(t.db, 'watch-live');
    queuePrefix = uniqueQueuePrefix();
    const env = { DATABASE_URL: t.url, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'warn' };
    const [ingestPort, apiPort] = [await freePort(), await freePort()];
    ingestor = await ServiceProcess.start('ingestor', ingestPort, {
      ...env,
      INGEST_PORT: String(ingestPort),
    });
    api = await ServiceProcess.start('api', apiPort, {
      ...env,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
    });
    tmp = mkdtempSync(join(tmpdir(), 'gh-watch-live-'));
  }, 90_000);

  afterAll(async () => {
    await ingestor?.stop();
    await api?.stop();
    await deleteQueueKeys(queuePrefix);
    await t?.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const read = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${api.baseUrl}/api/v1${path}`, {
      headers: { authorization: key.auth },
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  type NodeList = {
    data: Array<{
      provider_ref: string;
      kind: string;
      state: string;
      ended: number | null;
      parent_id: string | null;
      spawn_call_id: string | null;
    }>;
  };

  async function until<T>(
    what: string,
    probe: () => Promise<T | undefined>,
    timeoutMs = 30_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe().catch(() => undefined);
      if (value !== undefined) return value;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}\ningestor:\n${ingestor.logs()}\napi:\n${api.logs()}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('shows appended transcript lines through the read API', async () => {
    const project = join(tmp, 'projects', PROJECT);
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
      {
        projectsDir: join(tmp, 'projects'),
        projectDir: project,
        url: ingestor.baseUrl,
        key: key.key,
        once: false,
        fromStart: false,
        pollMs: 100,
        dataDir: join(tmp, 'data'),
        viewerBase: api.baseUrl,
      },
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
