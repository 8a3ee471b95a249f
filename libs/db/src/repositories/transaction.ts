import { Db } from '../connection';

/**
 * Runs `fn` in one transaction: the Db it receives is bound to it, so repositories built on it
 * commit or roll back together. Commits when `fn` resolves, rolls back when it throws. When `db`
 * is already a transaction, `fn` joins it (the caller commits).
 */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** Runs the reads of `fn` against one snapshot of the database (repeatable read). */
export function inSnapshot<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').execute(fn);
}

/**
 * Opens transactions on the pool for the services that combine repositories, so they never hold
 * Kysely themselves: `run(fn)` for writes that commit together, `snapshot(fn)` for consistent reads.
 */
export class Transactions {
  constructor(private readonly db: Db) {}

  /** `fn` in a new transaction, or in `caller` when the caller already holds one. */
  run<T>(fn: (trx: Db) => Promise<T>, caller?: Db): Promise<T> {
    return inTransaction(caller ?? this.db, fn);
  }

  /** `fn` in a repeatable-read transaction, on `on` (e.g. one reserved connection) when given. */
  snapshot<T>(fn: (trx: Db) => Promise<T>, on?: Db): Promise<T> {
    return inSnapshot(on ?? this.db, fn);
  }
}
