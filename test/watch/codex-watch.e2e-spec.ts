import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexAdapter } from '@graph-history/adapters';
import { CodexFinder } from '@graph-history/cli/watch/codex-finder';
import { WatchRunner } from '@graph-history/cli/watch/watch-runner';
import { createProgram } from '@graph-history/cli/cli';
import { ProjectGraphKeys } from '@graph-history/cli/watch/project-graph-keys';
import { claudeProjectName } from '@graph-history/cli/watch/projects';
import { captureIo } from './support/capture-io';
import {
  CODEX_FIXTURES,
  CODEX_SETS,
  type ThreadFacts,
  codexFacts,
  rootOf,
} from './support/codex-facts';
import { FIXTURES } from './support/fixture-lines';
import { LiveStack } from './support/live-stack';

/**
 * `watch --once --provider codex` over each set of Codex rollouts (hand-made from Codex's types,
 * written by Codex itself, real: see the READMEs under test/fixtures/codex*) into the built
 * ingestor, read back through the read API; then a Claude Code session of the same project, which
 * lands in the same graph. Expected values are read from the raw rollouts.
 */
describe('watch --once over Codex rollouts, read back through the API', () => {
  const suite = LiveStack.forSuite('watch-codex');
  const facts = codexFacts();

  async function watch(...args: string[]): Promise<string> {
    const io = captureIo({
      DATA_DIR: join(suite.tmp, 'data'),
      GRAPH_HISTORY_URL: suite.stack.ingestor.baseUrl,
      GRAPH_HISTORY_KEY: suite.stack.key.key,
    });
    await createProgram(io).parseAsync(['watch', '--once', ...args], { from: 'user' });
    expect(io.err()).toBe('');
    return io.out();
  }

  it.each(CODEX_SETS)(
    'one graph per project; sessions and sub-agents at their parent, with Codex’s states and times ($name)',
    async ({ root }) => {
      const facts = codexFacts(root);
      const sessions = join(suite.tmp, 'codex', root.split('/').slice(-2, -1)[0]!, 'sessions');
      cpSync(root, sessions, { recursive: true });
      const out = await watch('--provider', 'codex', '--dir', sessions);
      const roots = [...facts.values()].filter((f) => f.parentId === undefined);
      const agents = [...facts.values()].filter((f) => f.parentId !== undefined);
      const cwds = new Set(roots.map((f) => f.cwd));
      expect(out).toContain(
        `Codex: found ${roots.length} sessions (${agents.length} sub-agents) in ${cwds.size} projects under ${sessions}.`,
      );

      const keys = new ProjectGraphKeys(join(suite.tmp, 'data'));
      for (const cwd of cwds) {
        const graph = await keys.keyFor(claudeProjectName(cwd));
        const threads = [...facts.values()].filter(
          (f) => facts.get(rootOf(facts, f.id))!.cwd === cwd,
        );
        const refOf = (f: ThreadFacts) => {
          const session = rootOf(facts, f.id);
          return session === f.id ? f.id : `${session}/${f.id}`;
        };
        const nodes = await suite.stack.until('every node, in its last state', async () => {
          const all = await suite.stack.nodes(graph);
          const settled = threads.every(
            (f) => all.find((n) => n.provider_ref === refOf(f))?.state === f.state,
          );
          return all.length === threads.length && settled ? all : undefined;
        });
        const byRef = new Map(nodes.map((n) => [n.provider_ref, n]));
        const byId = new Map(nodes.map((n) => [n.id, n]));
        for (const f of threads) {
          const node = byRef.get(refOf(f))!;
          expect([f.id, node.kind, node.created]).toEqual([
            f.id,
            f.parentId === undefined ? 'session' : 'agent',
            f.metaTs,
          ]);
          if (f.parentId === undefined) {
            expect([f.id, node.parent_id]).toEqual([f.id, null]);
            continue;
          }
          const parent = byId.get(node.parent_id!)!;
          expect([f.id, parent.provider_ref.split('/').pop()]).toEqual([f.id, f.parentId]);
          expect([f.id, node.agent_type]).toEqual([f.id, f.role ?? 'default']);
          expect(f.timestamps.has(node.ended!)).toBe(true);
        }
        const events = await suite.stack.events(graph);
        expect(events.length).toBeGreaterThan(threads.length * 2);
        for (const e of events) {
          const id = byId.get(e.node_id)!.provider_ref.split('/').pop()!;
          expect([e.type, facts.get(id)!.timestamps.has(e.created)]).toEqual([e.type, true]);
        }
      }

      // Read again: nothing new is sent.
      const again = await watch('--provider', 'codex', '--dir', sessions, '--from-start');
      expect(again).toMatch(/0 new, \d+ already there/);
      expect(again).not.toMatch(/[1-9]\d* new/);
    },
    180_000,
  );

  it('a Claude Code session of the same project shares the Codex sessions’ graph', async () => {
    const shop = [...facts.values()].find(
      (f) => f.parentId === undefined && f.cwd === '/home/dev/shop',
    )!;
    const folder = claudeProjectName(shop.cwd);
    const projects = join(suite.tmp, 'projects');
    mkdirSync(projects, { recursive: true });
    cpSync(join(FIXTURES, 'v1-inline-sidechains'), join(projects, folder), { recursive: true });
    await watch('--dir', projects);
    const graph = await new ProjectGraphKeys(join(suite.tmp, 'data')).keyFor(folder);
    const nodes = await suite.stack.until('the Claude Code session', async () => {
      const all = await suite.stack.nodes(graph);
      return all.some((n) => n.provider_ref === '5c0375b4-57a5-4f26-b12d-d022ee4e51b7')
        ? all
        : undefined;
    });
    const sessions = nodes.filter((n) => n.kind === 'session').map((n) => n.provider_ref);
    expect(sessions.sort()).toEqual([shop.id, '5c0375b4-57a5-4f26-b12d-d022ee4e51b7'].sort());
  }, 180_000);

  it('live: a session written while watching, then its sub-agent in a new day folder', async () => {
    const sessions = join(suite.tmp, 'live', 'sessions');
    const root = [...facts.values()].find((f) => f.id.endsWith('a001'))!;
    const child = facts.get('019c8a10-2222-7000-8000-00000000b001')!;
    const rootText = readFileSync(join(CODEX_FIXTURES, root.file), 'utf8').split('\n');
    const childText = readFileSync(join(CODEX_FIXTURES, child.file), 'utf8');
    const rootPath = join(sessions, root.file);
    mkdirSync(join(rootPath, '..'), { recursive: true });
    writeFileSync(rootPath, `${rootText.slice(0, 8).join('\n')}\n`); // up to the first spawn call
    const options = {
      ...suite.stack.watchOptions(suite.tmp, 'live', { pollMs: 100, windowMs: 0 }),
      projectsDir: sessions,
      dataDir: join(suite.tmp, 'live-data'), // another graph-key secret: a graph of its own
    };
    const log = { info: () => undefined, warn: () => undefined };
    const controller = new AbortController();
    const running = new WatchRunner(
      codexAdapter,
      options,
      log,
      undefined,
      new CodexFinder(sessions),
    ).run(controller.signal);
    try {
      const graph = await new ProjectGraphKeys(options.dataDir).keyFor(claudeProjectName(root.cwd));
      const first = await suite.stack.until('the session', async () => {
        const nodes = await suite.stack.nodes(graph);
        return nodes.some((n) => n.provider_ref === root.id) ? nodes : undefined;
      });
      expect(first).toHaveLength(1);
      // the sub-agent's rollout lands in another day's folder, as after midnight
      const later = join(sessions, '2026', '03', '03', child.file.split('/').pop()!);
      mkdirSync(join(later, '..'), { recursive: true });
      writeFileSync(later, childText);
      appendFileSync(rootPath, `${rootText.slice(8).join('\n')}`);
      const agent = await suite.stack.until('the sub-agent, ended', async () => {
        const nodes = await suite.stack.nodes(graph);
        const found = nodes.find((n) => n.provider_ref === `${root.id}/${child.id}`);
        return found?.state === 'completed' ? { found, nodes } : undefined;
      });
      const parent = agent.nodes.find((n) => n.id === agent.found.parent_id)!;
      expect([parent.provider_ref, agent.found.created]).toEqual([root.id, child.metaTs]);
    } finally {
      controller.abort();
    }
    await running;
  }, 120_000);
});
