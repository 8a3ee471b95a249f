import { createHash } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeProjectName } from '../projects';
import { existsSync } from 'node:fs';
import { type OpencodeRows, type Row, readOpencodeRows } from './opencode-db';
import { legacyStorageOf, readLegacyRows } from './legacy-storage';

/** One project's opencode sessions, as copied out of the database. */
export interface MirroredProject {
  /** Claude Code's folder name for the sessions' working directory: one graph for both. */
  name: string;
  directory: string;
  /** The folder of row files (`<root session>/<session>.jsonl`). */
  dir: string;
  /** Top-level sessions. */
  sessions: number;
}

interface Seen {
  /** The latest `time_updated` copied: the next read starts there. */
  since: number;
  /** Row id -> the `time_updated` of its version copied last. */
  rows: Record<string, number>;
}

/**
 * Rows are read again from this long before the latest copied: a write whose transaction began
 * earlier may commit after a read that saw later rows. Versions already copied are skipped.
 */
const REREAD_MS = 60_000;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function parsed(row: Row): Row {
  if (typeof row['data'] !== 'string') return row;
  try {
    return { ...row, data: JSON.parse(row['data']) as unknown };
  } catch {
    return row;
  }
}

/**
 * Copies opencode's rows out of its SQLite database into one append-only JSONL file per session
 * (`{table, row}`), under `<dir>/<project>/<root session>/<session>.jsonl`, so `watch` follows
 * them like any transcript. A row is copied again only when its `time_updated` changed (a tool
 * part going from running to completed); what was copied is remembered in `<dir>/seen.json`.
 */
export class RowMirror {
  readonly dir: string;
  private seen: Seen | undefined;

  constructor(
    dataDir: string,
    readonly dbPath: string,
  ) {
    const tag = createHash('sha256').update(dbPath).digest('hex').slice(0, 12);
    this.dir = join(dataDir, 'watch', 'opencode-rows', tag);
  }

  async sync(): Promise<MirroredProject[]> {
    const seen = (this.seen ??= await this.load());
    const rows = await this.read(Math.max(0, seen.since - REREAD_MS));
    const byId = new Map(rows.sessions.map((s) => [String(s['id']), s]));
    const rootOf = (id: string): Row => {
      let at = byId.get(id)!;
      for (let hops = 0; hops < 1_000; hops++) {
        const parent = byId.get(str(at['parent_id']) ?? '');
        if (!parent) break;
        at = parent;
      }
      return at;
    };
    const lines = new Map<string, string[]>();
    const add = (table: string, row: Row, session: string) => {
      const id = String(row['id']);
      const updated = Number(row['time_updated']);
      if (!byId.has(session) || seen.rows[id] === updated) return;
      seen.rows[id] = updated;
      seen.since = Math.max(seen.since, updated);
      const root = rootOf(session);
      const file = join(this.projectDir(root), String(root['id']), `${session}.jsonl`);
      const list = lines.get(file) ?? [];
      list.push(JSON.stringify({ table, row: parsed(row) }));
      lines.set(file, list);
    };
    for (const s of rows.sessions) add('session', s, String(s['id']));
    for (const m of rows.messages) add('message', m, String(m['session_id']));
    for (const p of rows.parts) add('part', p, String(p['session_id']));
    for (const [file, text] of lines) {
      await mkdir(join(file, '..'), { recursive: true });
      await appendFile(file, `${text.join('\n')}\n`);
    }
    if (lines.size > 0) await this.save(seen);
    return this.projects(rows.sessions);
  }

  /** The database's rows; before opencode 1.2 (no database yet), its JSON storage's. */
  private read(since: number): Promise<OpencodeRows> {
    if (existsSync(this.dbPath)) return readOpencodeRows(this.dbPath, since);
    return readLegacyRows(legacyStorageOf(this.dbPath), since);
  }

  private projectDir(root: Row): string {
    return join(this.dir, claudeProjectName(str(root['directory']) ?? '/'));
  }

  private projects(sessions: Row[]): MirroredProject[] {
    const out = new Map<string, MirroredProject>();
    for (const s of sessions) {
      if (str(s['parent_id']) !== undefined) continue;
      const directory = str(s['directory']) ?? '/';
      const name = claudeProjectName(directory);
      const project = out.get(name) ?? { name, directory, dir: this.projectDir(s), sessions: 0 };
      project.sessions += 1;
      out.set(name, project);
    }
    return [...out.values()];
  }

  private async load(): Promise<Seen> {
    const text = await readFile(join(this.dir, 'seen.json'), 'utf8').catch(() => undefined);
    if (text === undefined) return { since: 0, rows: {} };
    try {
      const value = JSON.parse(text) as Seen;
      return typeof value.since === 'number' && typeof value.rows === 'object'
        ? value
        : { since: 0, rows: {} };
    } catch {
      return { since: 0, rows: {} };
    }
  }

  private async save(seen: Seen): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, 'seen.json');
    await writeFile(`${path}.tmp`, JSON.stringify(seen));
    await rename(`${path}.tmp`, path);
  }
}
