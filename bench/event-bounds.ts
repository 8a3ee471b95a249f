/**
 * `pnpm bench:event-bounds`: what one event can cost at the limits (docs/api-reference.md, "Limits
 * of one event"), measured on the reducer's output (the node versions and JSON an apply writes;
 * no database): a chain of spawns to the deepest level, the chain of 1,000 (refused at
 * ingest), and one event on a node that the most nodes a graph allows wait on, each with texts at
 * their limits. Prints figures; takes a few seconds.
 */
import { randomBytes } from 'node:crypto';
import {
  AppliedEvent,
  applyEvent,
  createGraphState,
  storedEventJson,
  storedNodeJsonOf,
  GraphState,
  LIMITS,
  useIdKey,
  validateBatch,
  WatchEvent,
} from '@graph-history/domain';

const SOURCE = { provider: 'bench', provider_version: '1', adapter: 'bench/1' };
const BIG = 'x'.repeat(LIMITS.text);

let keys = 0;
const event = (type: string, node: string, payload: Record<string, unknown>): WatchEvent =>
  ({ key: `k${++keys}`, type, created: 1_000 + keys, node, source: SOURCE, payload }) as WatchEvent;

const apply = (state: GraphState, ev: WatchEvent): AppliedEvent =>
  applyEvent(state, ev, state.lastSeq + 1);

/** Characters an applied event of graph `graphId` writes: its event JSON and each version's. */
const written = (graphId: number, a: AppliedEvent): number =>
  storedEventJson(graphId, a.event).length +
  a.presented.reduce((n, node) => n + storedNodeJsonOf(node).length, 0);

const spawn = (parent: string, node: string, background = false): WatchEvent =>
  event('agent.spawned', node, {
    parent,
    agent_type: 'x',
    purpose: BIG,
    cwd: BIG,
    background,
  });

function chain(): void {
  const state = createGraphState(1);
  apply(state, event('session.started', 'S', { title: BIG, cwd: BIG }));
  let versions = 0;
  let maxVersions = 0;
  let maxChars = 0;
  for (let i = 1; i <= LIMITS.treeDepth; i++) {
    const a = apply(state, spawn(i === 1 ? 'S' : `S/${i - 1}`, `S/${i}`));
    versions += a.versions.length;
    maxVersions = Math.max(maxVersions, a.versions.length);
    maxChars = Math.max(maxChars, written(state.graphId, a));
  }
  console.log(
    `chain of ${LIMITS.treeDepth} foreground spawns, 20,000-character texts: ${versions} versions in all, ` +
      `at most ${maxVersions} and ${(maxChars / 1e6).toFixed(2)} M characters per event`,
  );

  const attack = [
    event('session.started', 'A', {}),
    ...Array.from({ length: 1_000 }, (_, i) =>
      event('agent.spawned', `A/${i + 1}`, {
        parent: i === 0 ? 'A' : `A/${i}`,
        agent_type: 'x',
        purpose: 'p',
      }),
    ),
  ];
  const verdict = validateBatch({ get: () => undefined }, attack, Date.now());
  console.log(
    `chain of 1,000 spawns in one batch (issue 26: 501,501 versions, 706 MB): ` +
      (verdict.ok ? 'ACCEPTED' : `refused at events[${verdict.index}].${verdict.rejection.param}`),
  );
}

function hub(): void {
  const state = createGraphState(2);
  apply(state, event('session.started', 'S', {}));
  apply(state, spawn('S', 'S/hub', true));
  const waiters = LIMITS.openWaits + 1;
  for (let i = 0; i < waiters; i++) {
    apply(state, spawn('S', `S/${i}`, true));
    apply(state, event('status', `S/${i}`, { state: 'working', summary: BIG }));
    apply(state, event('title', `S/${i}`, { title: BIG }));
  }
  let opened = 0;
  for (let i = 0; i < waiters; i++)
    opened += apply(state, event('wait.started', `S/${i}`, { on: ['S/hub'] })).waitsOpened.length;
  const start = process.hrtime.bigint();
  const a = apply(
    state,
    event('tasks.updated', 'S/hub', { tasks: [{ content: 'c', status: 'pending' }] }),
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const ended = apply(state, event('ended', 'S/hub', { state: 'completed' }));
  console.log(
    `${waiters} nodes wait on one (texts at 20,000 characters): ${opened} waits opened; ` +
      `one tasks.updated on it writes ${a.versions.length} versions, ` +
      `${(written(state.graphId, a) / 1e6).toFixed(1)} M characters, reduced in ${ms.toFixed(0)} ms; ` +
      `its ended closes ${ended.waitsClosed.length} waits and writes ${ended.versions.length} versions`,
  );
}

// ids are sealed with a key of the database: any key will do
useIdKey(randomBytes(16));
chain();
hub();
