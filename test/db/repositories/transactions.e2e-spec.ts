import { AccountRepository, Db, Transactions } from '@graph-history/db';
import { createTestDatabase, TestDatabase } from '../../support/test-database';

/** Transactions: a service's writes commit together, and join a transaction the caller holds. */
describe('Transactions', () => {
  let t: TestDatabase;
  let transactions: Transactions;
  let accounts: AccountRepository;

  beforeAll(async () => {
    t = await createTestDatabase();
    transactions = new Transactions(t.db);
    accounts = new AccountRepository(t.db);
  });
  afterAll(() => t.drop());

  const exists = async (name: string) =>
    (await t.db.selectFrom('accounts').select('name').where('name', '=', name).execute()).length ===
    1;
  const create = (name: string) => (trx: Db) => new AccountRepository(trx).findOrCreate(name, 1);

  it('commits when the function resolves and rolls back when it throws', async () => {
    await transactions.run(create('committed'));
    await expect(
      transactions.run(async (trx) => {
        await create('rolled-back')(trx);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect([await exists('committed'), await exists('rolled-back')]).toEqual([true, false]);
  });

  it("joins the caller's transaction instead of opening a second one", async () => {
    await expect(
      transactions.run(async (outer) => {
        await transactions.run(create('joined'), outer);
        expect(await new AccountRepository(outer).findOrCreate('joined', 2)).toMatchObject({
          name: 'joined',
        });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await exists('joined')).toBe(false);
  });

  it('reads one snapshot however many statements it runs', async () => {
    await accounts.findOrCreate('before', 1);
    const seen = await transactions.snapshot(async (trx) => {
      const first = await trx.selectFrom('accounts').select('name').execute();
      await accounts.findOrCreate('meanwhile', 1);
      const second = await trx.selectFrom('accounts').select('name').execute();
      return [first.length, second.length];
    });
    expect(seen[0]).toBe(seen[1]);
    expect(await exists('meanwhile')).toBe(true);
  });
});
