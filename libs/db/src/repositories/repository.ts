import { Db } from '../connection';

/**
 * Base of the write-side repositories. Statements run on the Db the repository was built with
 * (the pool, when injected); `in(trx)` gives the same repository running them in the caller's
 * transaction, so several repositories commit or roll back together.
 */
export abstract class Repository {
  constructor(protected readonly db: Db) {}

  /** This repository running its statements in `trx`; itself when `trx` is undefined. */
  in(trx: Db | undefined): this {
    if (trx === undefined || trx === this.db) return this;
    const Bound = this.constructor as new (db: Db) => this;
    return new Bound(trx);
  }
}
