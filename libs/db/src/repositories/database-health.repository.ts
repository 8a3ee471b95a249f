import { sql } from 'kysely';
import { Db } from '../connection';
import { GenerateSql } from '../sql-text/generate-sql';

/** Readiness probe: does Postgres answer? */
export class DatabaseHealthRepository {
  constructor(private readonly db: Db) {}

  @GenerateSql({ params: [] })
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }
}
