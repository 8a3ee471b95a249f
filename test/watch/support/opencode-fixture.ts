import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SourceLine, opencodeAdapter } from '@graph-history/adapters';
import Database from 'better-sqlite3';

export const OPENCODE_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'opencode');

/** Rows written by opencode 1.18.33 itself (test/fixtures/opencode-recorded, see its README). */
export const OPENCODE_RECORDED = join(__dirname, '..', '..', 'fixtures', 'opencode-recorded');

/** Every set of rows the opencode tests read: hand-made, and written by opencode itself. */
export const OPENCODE_SETS = [
  { name: 'hand-made after opencode’s schema', root: OPENCODE_FIXTURES },
  { name: 'written by opencode 1.18.33 itself', root: OPENCODE_RECORDED },
];

export type Row = Record<string, unknown> & { id: string; time_updated: number };

export interface OpencodeRows {
  projects: Row[];
  sessions: Array<
    Row & {
      parent_id: string | null;
      directory: string;
      title: string;
      version: string;
      time_created: number;
    }
  >;
  messages: Array<Row & { session_id: string; data: Record<string, unknown> }>;
  parts: Array<Row & { session_id: string; message_id: string; data: Record<string, unknown> }>;
}

export function opencodeRows(root = OPENCODE_FIXTURES): OpencodeRows {
  return JSON.parse(readFileSync(join(root, 'rows.json'), 'utf8')) as OpencodeRows;
}

function insert(db: Database.Database, table: string, row: Record<string, unknown>): void {
  const values = Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      typeof v === 'object' && v !== null ? JSON.stringify(v) : v,
    ]),
  );
  const columns = Object.keys(values);
  db.prepare(
    `INSERT OR REPLACE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  ).run(values);
}

/** A database as opencode keeps it (WAL), with the fixture's rows; the writer stays open. */
export function buildOpencodeDb(
  path: string,
  rows = opencodeRows(),
  root = OPENCODE_FIXTURES,
): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(readFileSync(join(root, 'schema.sql'), 'utf8'));
  writeRows(db, rows);
  return db;
}

/** Inserts (or replaces) rows, as opencode does while it runs. */
export function writeRows(db: Database.Database, rows: Partial<OpencodeRows>): void {
  db.transaction(() => {
    for (const r of rows.projects ?? []) insert(db, 'project', r);
    for (const r of rows.sessions ?? []) insert(db, 'session', r);
    for (const r of rows.messages ?? []) insert(db, 'message', r);
    for (const r of rows.parts ?? []) insert(db, 'part', r);
  })();
}

/** The root of a session, from the raw parent links. */
export function rootOf(rows: OpencodeRows, id: string): string {
  let at = rows.sessions.find((s) => s.id === id)!;
  while (at.parent_id) at = rows.sessions.find((s) => s.id === at.parent_id)!;
  return at.id;
}

/** The fixture's rows as watch copies them out (one file per session, `{table, row}` lines). */
export function rowFiles(rows = opencodeRows()): SourceLine[][] {
  const files = new Map<string, string[]>();
  const add = (table: string, row: Row, session: string) => {
    const path = `${rootOf(rows, session)}/${session}.jsonl`;
    files.set(path, [...(files.get(path) ?? []), JSON.stringify({ table, row })]);
  };
  for (const s of rows.sessions) add('session', s, s.id);
  for (const m of rows.messages) add('message', m, m.session_id);
  for (const p of rows.parts) add('part', p, p.session_id);
  return [...files].map(([path, lines]) => {
    const [file] = opencodeAdapter.detect([path]);
    return lines.map((text, i) => ({ file: file!, lineNo: i + 1, text }));
  });
}

/**
 * The same rows as opencode before 1.2 stored them: JSON files under `storage/` (the row's `data`
 * with its ids), each file's modification time its row's `time_updated`.
 */
export function writeLegacyStorage(dataDir: string, rows = opencodeRows()): void {
  const put = (path: string[], value: object, updated: number) => {
    const file = join(dataDir, 'storage', ...path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(value, null, 2));
    utimesSync(file, updated / 1000, updated / 1000);
  };
  for (const s of rows.sessions) {
    const info = {
      id: s.id,
      projectID: s['project_id'],
      directory: s.directory,
      ...(s.parent_id ? { parentID: s.parent_id } : {}),
      title: s.title,
      version: s.version,
      time: { created: s.time_created, updated: s.time_updated },
    };
    put(['session', String(s['project_id']), `${s.id}.json`], info, s.time_updated);
  }
  for (const m of rows.messages) {
    put(
      ['message', m.session_id, `${m.id}.json`],
      { id: m.id, sessionID: m.session_id, ...m.data },
      m.time_updated,
    );
  }
  for (const p of rows.parts) {
    const part = { id: p.id, sessionID: p.session_id, messageID: p.message_id, ...p.data };
    put(['part', p.message_id, `${p.id}.json`], part, p.time_updated);
  }
}
