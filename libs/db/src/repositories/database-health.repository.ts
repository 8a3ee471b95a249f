import { sql } from 'kysely';
import { Db } from '../connection';

/** Readiness probe: does Postgres answer? */
export class DatabaseHealthRepository {
  constructor(private readonly db: Db) {}

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }
}
