import { Kysely, PostgresDialect, sql } from 'kysely';
import { Pool } from 'pg';
import {
  BatchedStatement,
  batchRows,
  createDb,
  Database,
  NamedQuery,
  pgArg,
  PreparedStatement,
  ReplicaRouting,
} from '@graph-history/db';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/** The read repositories' hot statements: planned once per pooled connection. */
describe('PreparedStatement', () => {
  let t: TestDatabase;
  const doubled = new PreparedStatement('gh_test_doubled', { x: pgArg<number>('int') }, (db, arg) =>
    db.selectNoFrom((eb) => eb(arg.x, '*', sql.lit(2)).as('n')),
  );

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  it('runs as a named prepared statement on a Db made by createDb', async () => {
    const db = createDb(t.url, { max: 1 });
    try {
      expect(await doubled.rows(db, { x: 21 })).toEqual([{ n: 42 }]);
      expect(await doubled.rows(db, { x: 4 })).toEqual([{ n: 8 }]);
      // one pooled connection: the statement it prepared is still there for the next call
      const { rows } = await sql`select name, statement from pg_prepared_statements`.execute(db);
      expect(rows).toEqual([{ name: 'gh_test_doubled', statement: doubled.text }]);
      expect(doubled.text).toBe('select cast($1 as int) * 2 as "n"');
    } finally {
      await db.destroy();
    }
  });

  it('runs unprepared through Kysely on any other Db', async () => {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new Pool({ connectionString: t.url, max: 1 }) }),
    });
    try {
      expect(await doubled.rows(db, { x: 5 })).toEqual([{ n: 10 }]);
      const { rows } = await sql`select name from pg_prepared_statements`.execute(db);
      expect(rows).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('sends each argument once, however often the query uses it', async () => {
    const repeated = new PreparedStatement(
      'gh_test_repeated',
      { x: pgArg<number>('int'), y: pgArg<string>('text') },
      (db, arg) =>
        db.selectNoFrom((eb) => [
          eb(arg.x, '+', arg.x).as('twice'),
          eb.val('lit').as('kept'),
          sql<string>`${arg.y} || ${arg.y}`.as('yy'),
          eb(arg.x, '*', arg.x).as('square'),
        ]),
    );
    expect(repeated.text).toBe(
      'select cast($1 as int) + cast($1 as int) as "twice", $2 as "kept", cast($3 as text) || cast($3 as text) as "yy", cast($1 as int) * cast($1 as int) as "square"',
    );
    const db = createDb(t.url, { max: 1 });
    try {
      expect(await repeated.rows(db, { x: 3, y: 'ab' })).toEqual([
        { twice: 6, kept: 'lit', yy: 'abab', square: 9 },
      ]);
    } finally {
      await db.destroy();
    }
    const other = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new Pool({ connectionString: t.url, max: 1 }) }),
    });
    try {
      expect(await repeated.rows(other, { x: 4, y: 'c' })).toEqual([
        { twice: 8, kept: 'lit', yy: 'cc', square: 16 },
      ]);
    } finally {
      await other.destroy();
    }
  });

  /** Halves of the even items' `x`; `graph` tells the batches of the `graph` scope apart. */
  const halvesOf = (name: string) =>
    new PreparedStatement(name, { xs: pgArg<number[]>('int[]') }, (db, arg) =>
      db
        .selectFrom(batchRows<{ x: number }>({ x: arg.xs }))
        .select(['p.i', sql<number>`p.x / 2`.as('half')])
        .where(sql<boolean>`p.x % 2 = 0`),
    );
  const halves = new BatchedStatement(
    { anyGraph: halvesOf('gh_test_halves'), oneGraph: halvesOf('gh_test_halves_1g') },
    (items: readonly { graph: number; x: number }[]) => ({ xs: items.map((i) => i.x) }),
    (item) => item.graph,
  );
  const calls = [
    { graph: 1, x: 4 },
    { graph: 2, x: 3 },
    { graph: 1, x: 10 },
    { graph: 3, x: 8 },
  ];

  it('batches the calls made together into one statement, each answered by its own row', async () => {
    const db = createDb(t.url, { max: 2 });
    const query = jest.spyOn(db, 'executeQuery');
    try {
      const got = await Promise.all(calls.map((c) => halves.load(db, c)));
      expect(got.map((r) => r && r.half)).toEqual([2, null, 5, 4]);
      expect(query).toHaveBeenCalledTimes(1);
      expect(query.mock.calls[0]![0]).toMatchObject({ name: 'gh_test_halves' });
      // a call of a later turn of the event loop goes in a statement of its own
      expect((await halves.load(db, { graph: 1, x: 6 }))?.half).toBe(3);
      expect(query).toHaveBeenCalledTimes(2);
    } finally {
      query.mockRestore();
      await db.destroy();
    }
  });

  it('batches only the calls of one graph together when the scope is a graph', async () => {
    const db = createDb(t.url, { max: 2, batchScope: 'graph' });
    const query = jest.spyOn(db, 'executeQuery');
    try {
      const got = await Promise.all(calls.map((c) => halves.load(db, c)));
      expect(got.map((r) => r && r.half)).toEqual([2, null, 5, 4]);
      // graphs 1 (two calls), 2 and 3
      expect(query).toHaveBeenCalledTimes(3);
      const sent = query.mock.calls.map(([c]) => c as NamedQuery);
      expect(sent.map((c) => c.name)).toEqual(Array(3).fill('gh_test_halves_1g'));
      expect(sent.map((c) => c.parameters)).toEqual([[[4, 10]], [[3]], [[8]]]);
    } finally {
      query.mockRestore();
      await db.destroy();
    }
  });

  it('runs each call alone, prepared, on a Db that is no pool of its own (a transaction)', async () => {
    const db = createDb(t.url, { max: 1 });
    try {
      await db.transaction().execute(async (trx) => {
        const got = await Promise.all(calls.slice(0, 2).map((c) => halves.load(trx, c)));
        expect(got.map((r) => r && r.half)).toEqual([2, null]);
        const { rows } = await sql`select name from pg_prepared_statements`.execute(trx);
        expect(rows).toEqual([{ name: 'gh_test_halves' }]);
      });
    } finally {
      await db.destroy();
    }
  });

  it('batches per pool: a request routed to a replica reads there', async () => {
    const primary = createDb(t.url, { max: 1 });
    const routing = new ReplicaRouting(primary, [t.url], { max: 1 });
    const [replica] = routing.replicas;
    const onReplica = <T>(read: () => Promise<T>) => routing.run(replica!, read);
    try {
      expect(routing.db.pool()).toBe(primary.pool());
      expect(routing.run(replica!, () => routing.db.pool())).toBe(replica!.pool());
      expect(routing.run(primary, () => routing.db.pool())).toBe(primary.pool());
      const connected = jest.spyOn(replica!.pool(), 'connect');
      const elsewhere = jest.spyOn(primary.pool(), 'connect');
      expect(await onReplica(() => doubled.rows(routing.db, { x: 2 }))).toEqual([{ n: 4 }]);
      const halved = onReplica(() => Promise.all(calls.map((c) => halves.load(routing.db, c))));
      expect((await halved).map((r) => r && r.half)).toEqual([2, null, 5, 4]);
      // one connection for the read, one for the batch of four calls
      expect(connected).toHaveBeenCalledTimes(2);
      expect(elsewhere).not.toHaveBeenCalled();
    } finally {
      await routing.close();
      await primary.destroy();
    }
  });
});
