import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Compilable,
  type RawBuilder,
} from 'kysely';
import type { Pool } from 'pg';
import type { Db } from './connection';
import type { Database } from './schema';

const pools = new WeakMap<Db, Pool>();
const routings = new WeakMap<Db, PoolRouting>();
const names = new Set<string>();

/**
 * Which calls of a BatchedStatement share one statement: any (`database`), or only calls about
 * one graph (`graph`: each statement stays on one shard of a database distributed by graph).
 */
export type BatchScope = 'database' | 'graph';

interface PoolRouting {
  /** The pool the running request reads from, for a Db over several (ReplicaRouting). */
  current?: () => Pool;
  batchScope?: BatchScope;
}

/** Called by createDb (and ReplicaRouting): the pg pool behind a Db, which runs its prepared statements. */
export function registerPool(db: Db, pool: Pool, routing: PoolRouting = {}): void {
  pools.set(db, pool);
  routings.set(db, routing);
}

/** The pg pool behind a Db that createDb made. */
export const poolOf = (db: Db): Pool | undefined => pools.get(db);

/** The pool a statement on `db` runs on in the current request (see registerPool). */
export const currentPool = (db: Db): Pool | undefined =>
  routings.get(db)?.current?.() ?? pools.get(db);

/** Which calls on `db` a BatchedStatement runs together (see BatchScope). */
export const batchScopeOf = (db: Db): BatchScope => routings.get(db)?.batchScope ?? 'database';

/** Compiles queries to SQL text; it never connects. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Where a statement's argument goes among its parameters. */
class Arg {
  constructor(readonly name: string) {}
}

/** A statement argument's Postgres type, carrying its TypeScript type. */
export interface ArgType<T> {
  pgType: string;
  /** Never set: holds `T` for inference. */
  value?: T;
}

export const pgArg = <T>(pgType: string): ArgType<T> => ({ pgType });

export type ArgTypes = Record<string, ArgType<unknown>>;
export type ArgValues<S extends ArgTypes> = {
  [K in keyof S]: S[K] extends ArgType<infer T> ? T : never;
};
type ArgRefs<S extends ArgTypes> = { [K in keyof S]: RawBuilder<ArgValues<S>[K]> };

/**
 * The compiled query with one placeholder per argument: Kysely gives each use of an argument its
 * own `$n`, and pg serializes, sends and Postgres parses every value, however often it repeats.
 */
function oneParameterPerArg(q: CompiledQuery): { sql: string; parameters: readonly unknown[] } {
  const parameters: unknown[] = [];
  const placeholderOf = new Map<string, number>();
  const placeholders = q.parameters.map((p) => {
    const seen = p instanceof Arg ? placeholderOf.get(p.name) : undefined;
    if (seen !== undefined) return seen;
    parameters.push(p);
    if (p instanceof Arg) placeholderOf.set(p.name, parameters.length);
    return parameters.length;
  });
  // Kysely writes `$n` only for parameters; literals it inlines never hold `$` and digits
  const sql = q.sql.replace(/\$(\d+)/g, (_, n: string) => `$${placeholders[Number(n) - 1]}`);
  return { sql, parameters };
}

/**
 * A hot read statement that Postgres parses and plans once per pooled connection (a named
 * prepared statement) instead of on every call as it does for Kysely's queries: for small,
 * index-only lookups planning costs several times the execution. It is a Kysely query, compiled
 * once, whose arguments (named, with their Postgres types) are placeholders in it: columns and
 * row type come from the query. On a Db that createDb did not make, the statement runs unprepared through Kysely.
 */
export class PreparedStatement<S extends ArgTypes, R> {
  readonly text: string;
  private readonly parameters: readonly unknown[];
  private readonly asJson: boolean;
  /** pg's query config without its values: each call's config inherits it (see rows). */
  private readonly config: { name: string; text: string };

  /**
   * With `asJson`, each row travels as one json value (`row_to_json`): pg then describes and
   * parses one field instead of one per column, which costs more JavaScript than the whole row's
   * `JSON.parse` on a hot single-row read. Only for rows whose columns' JSON forms are the values
   * the pool's parsers would give: numbers (bigint too), text, booleans, jsonb, arrays of those.
   */
  constructor(
    readonly name: string,
    argTypes: S,
    build: (db: Kysely<Database>, args: ArgRefs<S>) => Compilable<R>,
    { asJson = false }: { asJson?: boolean } = {},
  ) {
    if (names.has(name)) throw new Error(`Two prepared statements are named ${name}.`);
    names.add(name);
    const refs = Object.fromEntries(
      Object.entries(argTypes).map(([n, t]) => [
        n,
        sql`cast(${new Arg(n)} as ${sql.raw(t.pgType)})`,
      ]),
    ) as ArgRefs<S>;
    const compiled = oneParameterPerArg(build(compiler, refs).compile());
    this.asJson = asJson;
    this.text = asJson ? `select row_to_json(r) as r from (${compiled.sql}) as r` : compiled.sql;
    this.parameters = compiled.parameters;
    this.config = { name, text: this.text };
  }

  /** The rows; a `then` on pg's promise, not an async function: one promise turn less per read. */
  rows(db: Db, args: ArgValues<S>): Promise<R[]> {
    const pool = pools.get(db);
    return pool
      ? this.rowsOn(pool, args)
      : this.rowsOf(db.executeQuery(CompiledQuery.raw(this.text, this.values(args))));
  }

  /** `rows` on one of the pools behind a Db made by createDb (see currentPool). */
  rowsOn(pool: Pool, args: ArgValues<S>): Promise<R[]> {
    // pg copies every query config's own properties (cloneQueryConfig): only `values` is own
    const config = Object.create(this.config) as { name: string; text: string; values: unknown[] };
    config.values = this.values(args);
    return this.rowsOf(pool.query(config));
  }

  private values(args: ArgValues<S>): unknown[] {
    return this.parameters.map((p) => (p instanceof Arg ? args[p.name] : p));
  }

  private rowsOf(result: Promise<{ rows: unknown[] }>): Promise<R[]> {
    return result.then(({ rows }) =>
      this.asJson ? rows.map((row) => (row as { r: R }).r) : (rows as R[]),
    );
  }
}
