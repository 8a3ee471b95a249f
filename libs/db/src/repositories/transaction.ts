import { Db } from '../connection';

/**
 * Runs `fn` in one transaction: the Db it receives is bound to it, so repositories built on it
 * commit or roll back together. Commits when `fn` resolves, rolls back when it throws.
 */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(fn);
}

/** Runs the reads of `fn` against one snapshot of the database (repeatable read). */
export function inSnapshot<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').execute(fn);
}
