import { Provider } from '@nestjs/common';
import { Db } from '@graph-history/db';
import { DB } from './core.module';

/** Provides a repository class built on the shared Db (the pool; `in(trx)` binds it to a transaction). */
export const repositoryProvider = (cls: new (db: Db) => unknown): Provider => ({
  provide: cls,
  useFactory: (db: Db) => new cls(db),
  inject: [DB],
});
