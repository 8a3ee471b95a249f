import { Kysely, Migrator, MigrationResultSet } from 'kysely';
import { migrations } from '@graph-history/migrations';

/**
 * Applies every pending migration. Kysely's Postgres adapter holds a transaction-scoped advisory
 * lock while it runs, so concurrent boots of several replicas migrate once.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
