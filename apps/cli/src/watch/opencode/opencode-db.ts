import { homedir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { CliError } from '../../cli-error';

export type Row = Record<string, unknown>;

export interface OpencodeRows {
  sessions: Row[];
  messages: Row[];
  parts: Row[];
}

/** opencode's database: `$XDG_DATA_HOME/opencode/opencode.db`, XDG_DATA_HOME defaulting to ~/.local/share. */
export function defaultOpencodeDb(env: NodeJS.ProcessEnv): string {
  const data = env['XDG_DATA_HOME'] || join(env['HOME'] || homedir(), '.local', 'share');
  return join(data, 'opencode', 'opencode.db');
}

/**
 * Every session, and the messages and parts changed at or after `since` (ms), read in one read
 * transaction of a read-only connection: opencode keeps writing (WAL), a reader neither blocks it
 * nor sees half a write, and waits up to 5 s if the database is locked for a checkpoint.
 */
export async function readOpencodeRows(path: string, since: number): Promise<OpencodeRows> {
  const db = await openReadOnly(path);
  try {
    const changed = (table: 'message' | 'part') =>
      db
        .prepare(`SELECT * FROM ${table} WHERE time_updated >= ? ORDER BY time_updated, id`)
        .all(since) as Row[];
    return db.transaction(() => ({
      sessions: db.prepare('SELECT * FROM session ORDER BY time_created, id').all() as Row[],
      messages: changed('message'),
      parts: changed('part'),
    }))();
  } finally {
    db.close();
  }
}

/**
 * better-sqlite3 is an optional dependency (a native module built at install, which needs python3,
 * make and g++): only reading opencode needs it, so it is loaded here, when first needed.
 */
async function openReadOnly(path: string): Promise<BetterSqlite3.Database> {
  let Database: typeof BetterSqlite3;
  try {
    Database = (await import('better-sqlite3')).default;
    return new Database(path, { readonly: true, fileMustExist: true, timeout: 5_000 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw err;
    throw new CliError(
      `Reading opencode's database needs the better-sqlite3 module, which is not usable here (${(err as Error).message.split('\n')[0]}): install python3, make and g++, then run \`pnpm rebuild better-sqlite3\`.`,
    );
  }
}
