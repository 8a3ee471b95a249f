import { Db } from '../connection';
import { GenerateSql } from '../sql-text/generate-sql';

export interface Account {
  accountId: number;
  name: string;
  created: number;
}

export class AccountRepository {
  constructor(private readonly db: Db) {}

  @GenerateSql({ params: ['sql-sync'] })
  async findByName(name: string): Promise<Account | null> {
    const row = await this.db
      .selectFrom('accounts')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? { accountId: row.account_id, name: row.name, created: row.created } : null;
  }

  /** Returns the account with this name, creating it when it is new. */
  @GenerateSql({ params: ['sql-sync', 1_000] })
  async findOrCreate(name: string, now: number): Promise<Account> {
    await this.db
      .insertInto('accounts')
      .values({ name, created: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const account = await this.findByName(name);
    if (!account) throw new Error(`account ${name} vanished after insert`);
    return account;
  }

  @GenerateSql({ params: [] })
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
