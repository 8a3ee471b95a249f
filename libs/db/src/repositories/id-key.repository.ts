import { setTimeout as sleep } from 'node:timers/promises';
import { useIdKey } from '@graph-history/domain';
import { Db } from '../connection';
import { isConnectionError } from '../connection-errors';

/** How often a process whose database went away while it booted asks again. */
const RETRY_MS = 500;

/**
 * Loads the key public ids are sealed with (made once by migration 0012) into libs/domain's ids:
 * every process that encodes or decodes ids (both apps, the CLI's database commands) does this
 * once at boot, after migrating. A database that goes away meanwhile is waited for, as the boot
 * waited for it before migrating.
 */
export async function loadIdKey(db: Db): Promise<void> {
  for (;;) {
    try {
      useIdKey(await readIdKey(db));
      return;
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      await sleep(RETRY_MS);
    }
  }
}

async function readIdKey(db: Db): Promise<Buffer> {
  const row = await db
    .selectFrom('id_key')
    .select('key')
    .executeTakeFirst()
    .catch((err: { code?: string }) => {
      if (err.code === '42P01') return undefined; // no such table: not migrated
      throw err;
    });
  if (!row) throw new Error('The database has no id key: run `graph-history migrate` first.');
  return row.key;
}
