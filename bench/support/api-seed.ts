import { sql } from 'kysely';
import { Db } from '@graph-history/db';
import type { WatchEvent } from '@graph-history/domain';
import { simulate } from '@graph-history/simulator';
import { seedGraph } from '../../test/support/seed';

export const ACCOUNT = 'bench';
const GRAPHS = 200;
const EVENTS_PER_GRAPH = 2_000;
export const BIG_GRAPH_KEY = 'big';
export const BIG_GRAPH_NODES = 10_000;
/** Bump when what `seed` writes changes: a database seeded by another version is rebuilt. */
const SEED_VERSION = `v3: ${GRAPHS} graphs x ${EVENTS_PER_GRAPH} events + ${BIG_GRAPH_NODES}-node graph`;

/** Whether the database holds this version's complete seed (it is kept between runs). */
export async function isSeeded(db: Db): Promise<boolean> {
  const r = await sql<{ version: string }>`select version from bench_seed`
    .execute(db)
    .catch(() => null);
  return r?.rows[0]?.version === SEED_VERSION;
}

/**
 * 200 simulated graphs of 2,000 events and one graph of 10,000+ nodes, through the ingestor's
 * write path (no HTTP), then the seed version that marks the database complete.
 */
export async function seed(db: Db): Promise<void> {
  const t = Date.now();
  const graphs = simulate({
    graphs: GRAPHS,
    events: EVENTS_PER_GRAPH,
    seed: 'bench-api',
    graphKeyPrefix: 'bench',
  });
  let done = 0;
  const queue = [...graphs];
  const worker = async () => {
    for (let g = queue.shift(); g; g = queue.shift()) {
      await seedGraph(db, { accountName: ACCOUNT, graphKey: g.graphKey, events: g.events });
      if (++done % 20 === 0)
        console.log(`seeded ${done}/${GRAPHS} graphs (${((Date.now() - t) / 1000).toFixed(0)} s)`);
    }
  };
  await Promise.all([worker(), worker()]);
  await seedGraph(db, { accountName: ACCOUNT, graphKey: BIG_GRAPH_KEY, events: bigGraphEvents() });
  await sql`analyze`.execute(db);
  await sql`create table bench_seed (version text not null)`.execute(db);
  await sql`insert into bench_seed values (${SEED_VERSION})`.execute(db);
  console.log(`seeded ${SEED_VERSION} in ${((Date.now() - t) / 1000).toFixed(0)} s`);
}

/** A session with BIG_GRAPH_NODES agents, ten children per node, then a status on every hundredth. */
function bigGraphEvents(): WatchEvent[] {
  const source = { provider: 'claude-code', provider_version: '2.0.14', adapter: 'bench/1' };
  const at = (i: number) => 1_763_770_000_000 + i * 100;
  const ref = (i: number) => (i < 0 ? BIG_GRAPH_KEY : `${BIG_GRAPH_KEY}/a${i}`);
  const events: WatchEvent[] = [
    {
      key: 'root',
      type: 'session.started',
      created: at(0),
      node: BIG_GRAPH_KEY,
      source,
      payload: { title: BIG_GRAPH_KEY },
    },
  ];
  for (let i = 0; i < BIG_GRAPH_NODES; i++) {
    events.push({
      key: `spawn-${i}`,
      type: 'agent.spawned',
      created: at(i + 1),
      node: ref(i),
      source,
      payload: {
        parent: ref(Math.floor(i / 10) - 1),
        agent_type: 'worker',
        purpose: `task ${i}`,
        background: true,
      },
    });
  }
  for (let i = 0; i < BIG_GRAPH_NODES; i += 100) {
    events.push({
      key: `status-${i}`,
      type: 'status',
      created: at(BIG_GRAPH_NODES + i),
      node: ref(i),
      source,
      payload: { state: 'idle', summary: `done with ${i}` },
    });
  }
  return events;
}
