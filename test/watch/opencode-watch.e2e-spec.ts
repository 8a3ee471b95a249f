import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { opencodeAdapter } from '@graph-history/adapters';
import { createProgram } from '@graph-history/cli/cli';
import { OpencodeFinder } from '@graph-history/cli/watch/opencode/opencode-finder';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { ProjectGraphKeys } from '@graph-history/cli/watch/project-graph-keys';
import { claudeProjectName } from '@graph-history/cli/watch/projects';
import type { TokenCounts } from '@graph-history/domain';
import { captureIo } from './support/capture-io';
import { type ApiNode, LiveStack } from './support/live-stack';
import {
  OPENCODE_RECORDED,
  buildOpencodeDb,
  opencodeRows,
  rootOf,
  writeLegacyStorage,
  writeRows,
} from './support/opencode-fixture';
import { plus, tokensOf } from './support/token-sums';
import { opencodeMessages, opencodeSum } from './support/usage-oracles';

/**
 * `watch --once --provider opencode` over a database built from opencode's own schema with the
 * fixture's rows (test/fixtures/opencode, hand-made: see its README), in WAL mode with opencode's
 * writer connection open and writing between runs; read back through the read API.
 */
const usageOf = (node: ApiNode) =>
  tokensOf((node as ApiNode & { usage: TokenCounts | null }).usage);

describe('watch over an opencode database, read back through the API', () => {
  const suite = LiveStack.forSuite('watch-opencode');

  async function watch(...args: string[]): Promise<string> {
    const io = captureIo({
      DATA_DIR: join(suite.tmp, 'data'),
      GRAPH_HISTORY_URL: suite.stack.ingestor.baseUrl,
      GRAPH_HISTORY_KEY: suite.stack.key.key,
    });
    await createProgram(io).parseAsync(['watch', '--once', '--provider', 'opencode', ...args], {
      from: 'user',
    });
    expect(io.err()).toBe('');
    return io.out();
  }

  /** The graph's nodes once it holds `count` of them and none is still working. */
  const settled = (graph: string, count: number): Promise<ApiNode[]> =>
    suite.stack.until('the sessions, settled', async () => {
      const all = await suite.stack.nodes(graph);
      return all.length === count && all.every((n) => n.state !== 'working') ? all : undefined;
    });

  it('sessions and their sub-agent sessions, then rows opencode writes while it runs', async () => {
    const rows = opencodeRows();
    const folder = join(suite.tmp, 'opencode');
    mkdirSync(folder, { recursive: true });
    const writer = buildOpencodeDb(join(folder, 'opencode.db'));
    try {
      const out = await watch('--dir', folder);
      const roots = rows.sessions.filter((s) => !s.parent_id);
      const dirs = new Set(roots.map((s) => s.directory));
      expect(out).toContain(
        `opencode: found ${roots.length} sessions in ${dirs.size} projects in ${join(folder, 'opencode.db')}.`,
      );
      const keys = new ProjectGraphKeys(join(suite.tmp, 'data'));
      const shop = await keys.keyFor(claudeProjectName('/home/dev/shop'));
      const inShop = rows.sessions.filter(
        (s) =>
          rows.sessions.find((r) => r.id === rootOf(rows, s.id))!.directory === '/home/dev/shop',
      );
      const nodes = await settled(shop, inShop.length);
      const byRef = new Map(nodes.map((n) => [n.provider_ref, n]));
      const byId = new Map(nodes.map((n) => [n.id, n]));
      for (const s of inShop) {
        const ref = s.parent_id ? `${rootOf(rows, s.id)}/${s.id}` : s.id;
        const node = byRef.get(ref)!;
        expect([s.id, node.kind, node.created]).toEqual([
          s.id,
          s.parent_id ? 'agent' : 'session',
          s.time_created,
        ]);
        // tokens of its completed replies (watch --once -> API)
        expect([s.id, usageOf(node)]).toEqual([
          s.id,
          opencodeSum(opencodeMessages(rows.messages, s.id)),
        ]);
        if (!s.parent_id) {
          expect(node.state).toBe('idle');
          continue;
        }
        const task = rows.parts.find(
          (p) =>
            (p.data['state'] as { metadata?: { sessionId?: string } } | undefined)?.metadata
              ?.sessionId === s.id,
        )!;
        const call = task.data['state'] as { input: Record<string, string>; time: { end: number } };
        expect([
          byId.get(node.parent_id!)!.provider_ref,
          node.agent_type,
          node.state,
          node.ended,
        ]).toEqual([s.parent_id, call.input['subagent_type'], 'completed', call.time.end]);
      }

      // opencode goes on: a new turn asks a question (the part is running), then it is answered
      const root = roots.find((s) => s.directory === '/home/dev/shop')!;
      /** msg_a04 as opencode writes it while it streams (tokens so far), then completed. */
      const reply = (time: object, t: { input: number; output: number }) => ({
        role: 'assistant',
        time,
        parentID: 'msg_a01',
        modelID: 'claude-sonnet-4-5',
        providerID: 'anthropic',
        tokens: { ...t, reasoning: 0, cache: { read: 16_700, write: 120 } },
      });
      // written now, after every row there (the other project's too)
      const last = Math.max(...rows.sessions.map((s) => s.time_updated));
      const t = (s: number) => last + s * 1000;
      const question = (status: string) => ({
        id: 'prt_a0401',
        message_id: 'msg_a04',
        session_id: root.id,
        time_created: t(60),
        time_updated: status === 'running' ? t(61) : t(70),
        data: {
          type: 'tool',
          callID: 'call_question_2',
          tool: 'question',
          state: {
            status,
            input: { questions: [{ question: 'Ship it now?', header: 'Ship', options: [] }] },
            ...(status === 'completed' ? { output: 'Yes', title: 'question' } : {}),
            metadata: {},
            time: status === 'running' ? { start: t(61) } : { start: t(61), end: t(70) },
          },
        },
      });
      writeRows(writer, {
        messages: [
          {
            id: 'msg_a04',
            session_id: root.id,
            time_created: t(60),
            time_updated: t(60),
            data: reply({ created: t(60) }, { input: 4, output: 30 }),
          },
        ],
        parts: [question('running')],
      });
      await watch('--dir', folder);
      const asking = await suite.stack.until('the question', async () => {
        const all = await suite.stack.nodes(shop);
        return all.find((n) => n.provider_ref === root.id && n.attention !== null);
      });
      expect(asking.attention).toMatchObject({ reason: 'question', message: 'Ship it now?' });
      writeRows(writer, { parts: [question('completed')] });
      await watch('--dir', folder);
      await suite.stack.until('the answer', async () => {
        const all: ApiNode[] = await suite.stack.nodes(shop);
        return all.find((n) => n.provider_ref === root.id && n.attention === null);
      });
      // the reply completes: its final tokens count once; the streamed ones never did
      const before = usageOf(nodes.find((n) => n.provider_ref === root.id)!);
      expect(
        usageOf((await suite.stack.nodes(shop)).find((n) => n.provider_ref === root.id)!),
      ).toEqual(before);
      const final = { input: 6, output: 142 };
      writeRows(writer, {
        messages: [
          {
            id: 'msg_a04',
            session_id: root.id,
            time_created: t(60),
            time_updated: t(80),
            data: { ...reply({ created: t(60), completed: t(80) }, final), finish: 'stop' },
          },
        ],
      });
      await watch('--dir', folder);
      const expected = plus(before, {
        input_tokens: final.input,
        cache_read_tokens: 16_700,
        cache_creation_tokens: 120,
        output_tokens: final.output,
      });
      await suite.stack.until('the completed reply’s tokens', async () => {
        const all = await suite.stack.nodes(shop);
        const node = all.find((n) => n.provider_ref === root.id)!;
        return JSON.stringify(usageOf(node)) === JSON.stringify(expected) ? node : undefined;
      });

      const again = await watch('--dir', folder, '--from-start');
      expect(again).toMatch(/0 new, \d+ already there/);
      expect(again).not.toMatch(/[1-9]\d* new/);
    } finally {
      writer.close();
    }
  }, 180_000);

  it('a database opencode 1.18.33 wrote itself: each session and sub-agent, its state, times and tokens', async () => {
    const rows = opencodeRows(OPENCODE_RECORDED);
    const folder = join(suite.tmp, 'opencode-recorded');
    mkdirSync(folder, { recursive: true });
    const writer = buildOpencodeDb(join(folder, 'opencode.db'), rows, OPENCODE_RECORDED);
    try {
      await watch('--dir', folder);
      const keys = new ProjectGraphKeys(join(suite.tmp, 'data'));
      for (const root of rows.sessions.filter((s) => !s.parent_id)) {
        const graph = await keys.keyFor(claudeProjectName(root.directory));
        const own = rows.sessions.filter((s) => rootOf(rows, s.id) === root.id);
        const nodes = await settled(graph, own.length);
        const byId = new Map(nodes.map((n) => [n.id, n]));
        for (const s of own) {
          const node = nodes.find(
            (n) => n.provider_ref === (s.parent_id ? `${root.id}/${s.id}` : s.id),
          )!;
          expect([s.id, node.kind, node.created, usageOf(node)]).toEqual([
            s.id,
            s.parent_id ? 'agent' : 'session',
            s.time_created,
            opencodeSum(opencodeMessages(rows.messages, s.id)),
          ]);
          if (!s.parent_id) {
            expect([s.id, node.state, node.title]).toEqual([s.id, 'idle', s.title]);
            continue;
          }
          const call = rows.parts.find(
            (p) =>
              (p.data['state'] as { metadata?: { sessionId?: string } } | undefined)?.metadata
                ?.sessionId === s.id,
          )!.data['state'] as { input: Record<string, string>; time: { end: number } };
          expect([
            byId.get(node.parent_id!)!.provider_ref,
            node.agent_type,
            node.state,
            node.ended,
          ]).toEqual([s.parent_id, call.input['subagent_type'], 'completed', call.time.end]);
        }
      }
      const again = await watch('--dir', folder, '--from-start');
      expect(again).toMatch(/0 new, \d+ already there/);
      expect(again).not.toMatch(/[1-9]\d* new/);
    } finally {
      writer.close();
    }
  }, 180_000);

  it('live: a row opencode commits wakes the watch (its folder is watched, not polled)', async () => {
    const rows = opencodeRows();
    const folder = join(suite.tmp, 'opencode-live');
    mkdirSync(folder, { recursive: true });
    const dbPath = join(folder, 'opencode.db');
    const writer = buildOpencodeDb(dbPath);
    const options = {
      // polling far beyond the test's wait: only the folder's change notification can wake it
      ...suite.stack.watchOptions(suite.tmp, 'opencode-live', { pollMs: 600_000, windowMs: 0 }),
      projectsDir: dbPath,
      dataDir: join(suite.tmp, 'data-opencode-live'),
    };
    const controller = new AbortController();
    const running = new WatchRunner(
      opencodeAdapter,
      options,
      { info: () => undefined, warn: () => undefined },
      undefined,
      new OpencodeFinder(dbPath, options.dataDir),
    ).run(controller.signal);
    try {
      const root = rows.sessions.find((s) => !s.parent_id && s.directory === '/home/dev/shop')!;
      const graph = await new ProjectGraphKeys(options.dataDir).keyFor(
        claudeProjectName(root.directory),
      );
      await suite.stack.until('the session, idle', async () =>
        (await suite.stack.nodes(graph)).find(
          (n) => n.provider_ref === root.id && n.state === 'idle',
        ),
      );
      const now = Date.now();
      writeRows(writer, {
        messages: [
          {
            id: 'msg_a05',
            session_id: root.id,
            time_created: now,
            time_updated: now,
            data: { role: 'user', time: { created: now }, agent: 'build' },
          },
        ],
      });
      const working = await suite.stack.until(
        'the new turn',
        async () =>
          (await suite.stack.nodes(graph)).find(
            (n) => n.provider_ref === root.id && n.state === 'working',
          ),
        20_000,
      );
      expect(working.last_event).toBe(now);
    } finally {
      controller.abort();
      writer.close();
    }
    await running;
  }, 120_000);

  it('opencode before 1.2: its JSON storage, read the same way', async () => {
    const rows = opencodeRows();
    const folder = join(suite.tmp, 'opencode-legacy');
    writeLegacyStorage(folder);
    const io = captureIo({
      DATA_DIR: join(suite.tmp, 'data-legacy'),
      GRAPH_HISTORY_URL: suite.stack.ingestor.baseUrl,
      GRAPH_HISTORY_KEY: suite.stack.key.key,
    });
    await createProgram(io).parseAsync(
      ['watch', '--once', '--provider', 'opencode', '--dir', folder],
      { from: 'user' },
    );
    expect(io.err()).toBe('');
    const graph = await new ProjectGraphKeys(join(suite.tmp, 'data-legacy')).keyFor(
      claudeProjectName('/home/dev/shop'),
    );
    const inShop = rows.sessions.filter(
      (s) => rows.sessions.find((r) => r.id === rootOf(rows, s.id))!.directory === '/home/dev/shop',
    );
    const nodes = await settled(graph, inShop.length);
    const byRef = new Map(nodes.map((n) => [n.provider_ref, n]));
    for (const s of inShop) {
      const node = byRef.get(s.parent_id ? `${rootOf(rows, s.id)}/${s.id}` : s.id)!;
      expect([s.id, node.kind, node.created, node.state]).toEqual([
        s.id,
        s.parent_id ? 'agent' : 'session',
        s.time_created,
        s.parent_id ? 'completed' : 'idle',
      ]);
    }
  }, 120_000);
});
