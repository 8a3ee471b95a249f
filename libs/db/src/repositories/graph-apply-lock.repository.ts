import { sql } from 'kysely';
import { Db } from '../connection';
import { executeNamed } from '../named-statement';
import { Repository } from './repository';
import { GenerateSql } from '../sql-text/generate-sql';

/** Advisory-lock namespace of "applying graph N" (the two-key form: namespace, graph). */
const APPLY_LOCK_SPACE = 0x47484150; // 'GHAP'

/**
 * One writer per graph across processes and paths (BullMQ workers, the in-process fallback while
 * Redis is away): a session advisory lock on one pooled connection, held while `fn` runs its
 * statements on that same connection, released after. Exactly-once does not depend on it (the
 * apply commit is a compare-and-set); it keeps two appliers from doing the same work at once.
 */
export class GraphApplyLockRepository extends Repository {
  /** `fn`'s result, or null without running it when another session holds the graph's lock. */
  @GenerateSql({ params: [1, () => Promise.resolve(true)] })
  async withApplyLock<T>(
    graphId: number,
    fn: (conn: Db) => Promise<T>,
  ): Promise<{ value: T } | null> {
    return this.db.connection().execute(async (conn) => {
      const key = sql`${APPLY_LOCK_SPACE}::int, (${graphId}::bigint % 2147483647)::int`;
      const [lock] = await executeNamed(
        conn,
        'gh_apply_lock',
        sql<{ locked: boolean }>`select pg_try_advisory_lock(${key}) as locked`,
      );
      if (!lock!.locked) return null;
      try {
        return { value: await fn(conn) };
      } finally {
        await executeNamed(conn, 'gh_apply_unlock', sql`select pg_advisory_unlock(${key})`);
      }
    });
  }
}
