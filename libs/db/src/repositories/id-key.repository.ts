import { useIdKey } from '@graph-history/domain';
import { Db } from '../connection';

/**
 * Loads the key public ids are sealed with (made once by migration 0012) into libs/domain's ids:
 * every process that encodes or decodes ids (both apps, the CLI's database commands) does this
 * once at boot, after migrating.
 */
export async function loadIdKey(db: Db): Promise<void> {
  const row = await db
    .selectFrom('id_key')
    .select('key')
    .executeTakeFirst()
    .catch((err: { code?: string }) => {
      if (err.code === '42P01') return undefined; // no such table: not migrated
      throw err;
    });
  if (!row) throw new Error('The database has no id key: run `graph-history migrate` first.');
  useIdKey(row.key);
}
