import { Client } from 'pg';

/** The tables an apply writes, each with the column that places a row in a run of events. */
const APPLIED_TABLES = [
  ['events', 'seq'],
  ['node_versions', 'valid_from'],
  ['task_snapshots', 'seq'],
  ['spawns', 'seq'],
  ['messages', 'seq'],
  ['waits', 'started_seq'],
] as const;
const SCHEMA = 'bench_limit';

export interface WriteLimitOptions {
  /** Graphs whose applied rows are copied (they must be fully applied). */
  graphIds: number[];
  /** Events per transaction, as the applier's batch. */
  batch: number;
  clients: number;
  /** How many times the rows are written, each time under other graph ids. */
  rounds: number;
}

export interface WriteLimit {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  rowsPerEvent: number;
}

interface Statement {
  text: string;
  values: unknown[];
}

/** One transaction: the rows of `batch` consecutive events of a graph, one insert per table. */
interface Transaction {
  events: number;
  statements: (graphId: string) => Statement[];
}

/**
 * Postgres alone writing the rows an apply writes: the applied rows of some graphs, read back,
 * then written again by several clients into empty copies of the tables (same indexes), one
 * transaction of multi-row INSERTs per run of `batch` events plus the graph head's update,
 * without waiting for the WAL flush (as the apply commits). Nothing else runs in the meantime:
 * no reducer, no queue, no JSON building. The copies are dropped afterwards.
 */
export async function measureWriteLimit(
  databaseUrl: string,
  options: WriteLimitOptions,
): Promise<WriteLimit> {
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  const clients: Client[] = [];
  try {
    await admin.query(`drop schema if exists ${SCHEMA} cascade; create schema ${SCHEMA}`);
    for (const [table] of APPLIED_TABLES)
      await admin.query(`create table ${SCHEMA}.${table} (like public.${table} including all)`);
    await admin.query(`create table ${SCHEMA}.graphs (like public.graphs including all)`);
    const transactions = await readTransactions(admin, options);
    const rows = await admin.query<{ n: number }>(
      `select (select count(*) from node_versions where graph_id = any($1))
        + (select count(*) from task_snapshots where graph_id = any($1))
        + (select count(*) from spawns where graph_id = any($1))
        + (select count(*) from messages where graph_id = any($1))
        + (select count(*) from waits where graph_id = any($1))
        + (select count(*) from events where graph_id = any($1)) as n`,
      [options.graphIds],
    );
    // One writer per graph at a time, as the apply: a unit is one graph's runs, in order.
    const units: { graphId: string; runs: { events: number; statements: Statement[] }[] }[] = [];
    for (let round = 0; round < options.rounds; round++)
      for (const [graphIndex, runs] of transactions.entries()) {
        const graphId = String(1_000_000 * (round + 1) + graphIndex);
        units.push({
          graphId,
          runs: runs.map((t) => ({ events: t.events, statements: t.statements(graphId) })),
        });
        await admin.query(
          `insert into ${SCHEMA}.graphs (graph_id, graph_key, account_id, source, created) values ($1, $2, 1, 'watch', 0)`,
          [graphId, `limit-${graphId}`],
        );
      }
    for (let i = 0; i < options.clients; i++) {
      const c = new Client({ connectionString: databaseUrl });
      await c.connect();
      clients.push(c);
    }
    const events = units.reduce((n, u) => n + u.runs.reduce((m, r) => m + r.events, 0), 0);
    const start = performance.now();
    let next = 0;
    await Promise.all(
      clients.map(async (c) => {
        for (let u = units[next++]; u; u = units[next++])
          for (const run of u.runs) {
            await c.query('begin');
            await c.query('set local synchronous_commit = off');
            for (const s of run.statements) await c.query(s.text, s.values);
            await c.query(
              `update ${SCHEMA}.graphs set applied_seq = applied_seq + $2 where graph_id = $1`,
              [u.graphId, run.events],
            );
            await c.query('commit');
          }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const sourceEvents = transactions.flat().reduce((n, t) => n + t.events, 0);
    return {
      events,
      seconds,
      eventsPerSecond: events / seconds,
      rowsPerEvent: Number(rows.rows[0]!.n) / sourceEvents,
    };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
    await admin.query(`drop schema if exists ${SCHEMA} cascade`);
    await admin.end();
  }
}

/** The graphs' applied rows as ready-to-send INSERT statements, grouped in runs of `batch` events. */
async function readTransactions(
  c: Client,
  { graphIds, batch }: WriteLimitOptions,
): Promise<Transaction[][]> {
  const out: Transaction[][] = [];
  for (const graphId of graphIds) {
    const runs: Transaction[] = [];
    out.push(runs);
    const head = await c.query<{ applied_seq: string }>(
      'select applied_seq from graphs where graph_id = $1',
      [graphId],
    );
    const applied = Number(head.rows[0]!.applied_seq);
    const perTable = [];
    for (const [table, seqColumn] of APPLIED_TABLES) {
      const columns = (
        await c.query<{ column_name: string }>(
          `select column_name from information_schema.columns
             where table_schema = 'public' and table_name = $1 order by ordinal_position`,
          [table],
        )
      ).rows.map((r) => r.column_name);
      // Every value as text: Postgres casts it to the column's type, as for any client.
      const rows = await c.query<{ seq: string; values: (string | null)[] }>({
        text: `select ${seqColumn}::text as seq, array[${columns.map((col) => `${col}::text`).join(', ')}] as values
                 from ${table} where graph_id = $1 order by ${seqColumn}`,
        values: [graphId],
      });
      perTable.push({ table, columns, rows: rows.rows });
    }
    for (let from = 1; from <= applied; from += batch) {
      const to = Math.min(applied, from + batch - 1);
      const parts = perTable
        .map(({ table, columns, rows }) => ({
          table,
          columns,
          rows: rows
            .filter((r) => Number(r.seq) >= from && Number(r.seq) <= to)
            .map((r) => r.values),
        }))
        .filter((p) => p.rows.length > 0);
      runs.push({
        events: to - from + 1,
        statements: (newGraphId) =>
          parts.map(({ table, columns, rows }) => {
            const graphCol = columns.indexOf('graph_id');
            const values: unknown[] = [];
            const tuples = rows.map((r) => {
              const start = values.length;
              r.forEach((v, i) => values.push(i === graphCol ? newGraphId : v));
              return `(${columns.map((_, i) => `$${start + i + 1}`).join(', ')})`;
            });
            return {
              text: `insert into ${SCHEMA}.${table} (${columns.join(', ')}) values ${tuples.join(', ')}`,
              values,
            };
          }),
      });
    }
  }
  return out;
}
