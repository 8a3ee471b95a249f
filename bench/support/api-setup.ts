import { sql } from 'kysely';
import { createDb, Db, loadIdKey, migrateToLatest } from '@graph-history/db';
import { createKey } from '../../test/ingestor/support/api-keys';
import { ACCOUNT, isSeeded, seed } from './api-seed';
import { apiTargets, ApiTargets, idEncoderOf, mixedTargets } from './api-targets';
import { ensureBaselineRows } from './baseline-rows';
import { benchDatabase, databaseExists, recreateDatabase } from './bench-database';
import type { Target } from './wrk';

export interface ApiBench {
  db: Db;
  databaseName: string;
  databaseUrl: string;
  /** Authorization header value of a secret key of the seeded account. */
  auth: string;
}

/**
 * The seeded read database (BENCH_API_DB, default gh_bench_api): reused when it holds this seed
 * version, else (or with --reseed) rebuilt, which takes a few minutes.
 */
export async function openApiBench(): Promise<ApiBench> {
  const { name, url } = benchDatabase('BENCH_API_DB', 'gh_bench_api');
  let db: Db | undefined;
  if (!process.argv.includes('--reseed') && (await databaseExists(name))) {
    db = createDb(url, { max: 4 });
    await migrateToLatest(db);
    if (await isSeeded(db))
      console.log(`reusing the seeded database ${name} (--reseed rebuilds it)`);
    else {
      await db.destroy();
      db = undefined;
    }
  }
  if (!db) {
    console.log(`seeding the database ${name} (a few minutes; kept for later runs)`);
    await recreateDatabase(name);
    db = createDb(url, { max: 4 });
    await migrateToLatest(db);
    await seed(db);
  }
  await loadIdKey(db);
  await vacuumReadTables(db);
  await ensureBaselineRows(db);
  const { auth } = await createKey(db, ACCOUNT);
  return { db, databaseName: name, databaseUrl: url, auth };
}

/**
 * What autovacuum does in production (it may be off on a test server): index-only scans skip the
 * heap only on pages the visibility map marks; quick when nothing changed since the last run.
 */
export async function vacuumReadTables(db: Db): Promise<void> {
  await sql`vacuum (analyze) node_versions, events, graphs, graph_directory`.execute(db);
}

/** The targets of every scenario, the mixed one with ETags fetched from the running API. */
export async function scenarioTargets(
  bench: ApiBench,
  apiUrl: string,
): Promise<{ targets: ApiTargets; mixed: Target[] }> {
  const get = (path: string) =>
    fetch(`${apiUrl}${path}`, { headers: { authorization: bench.auth } });
  const firstPage = (await (await get('/api/v1/graphs?limit=100')).json()) as {
    data: { id: string }[];
  };
  const targets = await apiTargets(
    bench.db,
    firstPage.data.map((g) => g.id),
    await idEncoderOf(bench.db),
  );
  const mixed = await mixedTargets(targets, async (path) => {
    const res = await get(path);
    await res.arrayBuffer();
    return res.headers.get('etag') ?? undefined;
  });
  return { targets, mixed };
}
