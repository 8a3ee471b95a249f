import { sql } from 'kysely';
import type { Db } from '@graph-history/db';
import { processCpuUs } from './process-cpu';

/**
 * CPU time so far (µs) of the Postgres backends serving one client, found by the
 * `application_name` it connects with (PGAPPNAME): what its statements cost the database,
 * apart from every other client's. Null off Linux or when no backend has that name.
 */
export async function backendCpuUs(db: Db, applicationName: string): Promise<number | null> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity where application_name = ${applicationName}`.execute(db);
  let total: number | null = null;
  for (const { pid } of rows) {
    const us = processCpuUs(pid);
    if (us !== null) total = (total ?? 0) + us;
  }
  return total;
}
