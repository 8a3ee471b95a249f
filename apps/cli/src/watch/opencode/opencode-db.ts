import { homedir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

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
export function readOpencodeRows(path: string, since: number): OpencodeRows {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 5_000 });
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
