/**
 * opencode read benchmark (`pnpm bench:opencode`): builds a WAL database with opencode's schema
 * (test/fixtures/opencode/schema.sql) holding BENCH_OPENCODE_SESSIONS sessions (default 200) of
 * BENCH_OPENCODE_MESSAGES messages (default 20) with BENCH_OPENCODE_PARTS parts each (default 5),
 * its writer connection open as opencode's would be, then reports: the first copy of every row out
 * of the database (`RowMirror.sync`), an incremental copy after 100 parts changed, and the opencode
 * adapter converting every copied row (rows/s). No services needed.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SourceLine, opencodeAdapter } from '@graph-history/adapters';
import Database from 'better-sqlite3';
import { RowMirror } from '../apps/cli/src/watch/opencode/row-mirror';

const setting = (name: string, fallback: number): number =>
  Number(process.env[`BENCH_OPENCODE_${name}`] ?? fallback);
const SESSIONS = setting('SESSIONS', 200);
const MESSAGES = setting('MESSAGES', 20);
const PARTS = setting('PARTS', 5);
const ROOT = path.resolve(__dirname, '..');
const T0 = Date.UTC(2026, 2, 2);

function build(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(readFileSync(path.join(ROOT, 'test/fixtures/opencode/schema.sql'), 'utf8'));
  const session = db.prepare(
    `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated)
     VALUES (?, 'prj', ?, 'slug', ?, ?, '1.2.10', ?, ?)`,
  );
  const message = db.prepare(
    'INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)',
  );
  const part = db.prepare(
    'INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)',
  );
  db.exec(
    "INSERT INTO project (id, worktree, time_created, time_updated) VALUES ('prj', '/w', 0, 0)",
  );
  db.transaction(() => {
    let t = T0;
    for (let s = 0; s < SESSIONS; s++) {
      const sid = `ses_${String(s).padStart(6, '0')}`;
      const parent = s % 4 === 0 || s === 0 ? null : `ses_${String(s - (s % 4)).padStart(6, '0')}`;
      session.run(sid, parent, `/home/dev/p${s % 10}`, `Session ${s}`, t, t);
      for (let m = 0; m < MESSAGES; m++) {
        const mid = `${sid}_msg_${m}`;
        t += 1_000;
        const role = m % 2 === 0 ? 'user' : 'assistant';
        const info =
          role === 'user'
            ? { role, time: { created: t } }
            : {
                role,
                time: { created: t, completed: t + 500 },
                finish: m === MESSAGES - 1 ? 'stop' : 'tool-calls',
              };
        message.run(mid, sid, t, t + 500, JSON.stringify(info));
        for (let p = 0; p < PARTS; p++) {
          const data =
            p === 0
              ? { type: 'text', text: `text ${m}.${p}` }
              : {
                  type: 'tool',
                  callID: `call_${m}_${p}`,
                  tool: 'read',
                  state: {
                    status: 'completed',
                    input: { filePath: `f${p}` },
                    output: 'x'.repeat(200),
                    title: `f${p}`,
                    metadata: {},
                    time: { start: t + p, end: t + p + 10 },
                  },
                };
          part.run(`${mid}_prt_${p}`, mid, sid, t + p, t + p + 10, JSON.stringify(data));
        }
      }
    }
  })();
  return db;
}

function mirrorLines(dir: string): SourceLine[] {
  const out: SourceLine[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.jsonl')) {
        const rel = path.relative(path.join(full, '..', '..'), full);
        const [file] = opencodeAdapter.detect([rel.split(path.sep).join('/')]);
        readFileSync(full, 'utf8')
          .trimEnd()
          .split('\n')
          .forEach((text, i) => out.push({ file: file!, lineNo: i + 1, text }));
      }
    }
  };
  walk(dir);
  return out;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'gh-bench-opencode-'));
  try {
    const dbFile = path.join(tmp, 'opencode.db');
    const writer = build(dbFile);
    const rows = SESSIONS * (1 + MESSAGES * (1 + PARTS));
    const mirror = new RowMirror(path.join(tmp, 'data'), dbFile);
    let started = performance.now();
    await mirror.sync();
    const first = performance.now() - started;
    writer.transaction(() => {
      const update = writer.prepare('UPDATE part SET time_updated = ? WHERE id = ?');
      for (let i = 0; i < 100; i++)
        update.run(Date.now() + i, `ses_${String(i % SESSIONS).padStart(6, '0')}_msg_1_prt_1`);
    })();
    started = performance.now();
    await mirror.sync();
    const incremental = performance.now() - started;
    const lines = mirrorLines(mirror.dir);
    started = performance.now();
    const out = opencodeAdapter.toEvents(opencodeAdapter.initialState(), lines);
    const convert = performance.now() - started;
    writer.close();
    console.log(`opencode rows: ${SESSIONS} sessions, ${rows} rows (${lines.length} copied lines)`);
    console.log(
      `first copy out of the database: ${first.toFixed(0)} ms (${Math.round(rows / (first / 1000))} rows/s)`,
    );
    console.log(`copy after 100 parts changed: ${incremental.toFixed(0)} ms`);
    console.log(
      `adapter: ${lines.length} rows -> ${out.events.length} events in ${convert.toFixed(0)} ms (${Math.round(lines.length / (convert / 1000))} rows/s)`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
