import {
  DummyDriver,
  Kysely,
  sql,
  type CompiledQuery,
  type Compilable,
  type RawBuilder,
} from 'kysely';
import type { Db } from './connection';
import { named } from './named-statement';
import { postgresDialect } from './named-statement-driver';
import type { Database } from './schema';

/** Compiles queries to SQL text; it never connects. */
const compiler = new Kysely<Database>({ dialect: postgresDialect(new DummyDriver()) });

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
 * A hot read statement, run as a named prepared statement (see named): for small, index-only
 * lookups planning costs several times the execution. It is a Kysely query, compiled once, whose
 * arguments (named, with their Postgres types) are placeholders in it: columns and row type come
 * from the query.
 */
export class PreparedStatement<S extends ArgTypes, R> {
  readonly text: string;
  private readonly parameters: readonly unknown[];
  private readonly asJson: boolean;

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
  }

  /** The rows; a `then`, not an async function: one promise turn less per read. */
  rows(db: Db, args: ArgValues<S>): Promise<R[]> {
    const parameters = this.parameters.map((p) => (p instanceof Arg ? args[p.name] : p));
    return db
      .executeQuery(named(this.name, { sql: this.text, parameters }))
      .then(({ rows }) => (this.asJson ? rows.map((row) => (row as { r: R }).r) : (rows as R[])));
  }
}
