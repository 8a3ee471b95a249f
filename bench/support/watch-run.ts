import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { hookCommand } from '../../apps/cli/src/hooks/hook-inbox-dir';

const CLI = path.resolve(__dirname, '../../apps/cli/dist/main.js');

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs the installed hook command as Claude Code would (`sh -c`); resolves with how long it took. */
export function fireHook(inbox: string, payload: object): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', hookCommand(inbox)], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('exit', () => resolve(performance.now() - started));
    child.stdin.end(JSON.stringify(payload));
  });
}

/** The built `graph-history watch` on a transcript folder, with its hook inbox or without hooks. */
export function startWatch(o: {
  project: string;
  graph: string;
  ingestUrl: string;
  secret: string;
  windowMs: number;
  /** The hook inbox; null: `--no-hooks`. */
  inbox: string | null;
  dataDir: string;
}): ChildProcess {
  return spawn(
    process.execPath,
    [
      CLI,
      'watch',
      '--dir',
      o.project,
      '--graph',
      o.graph,
      '--url',
      o.ingestUrl,
      '--key',
      o.secret,
      '--window-ms',
      String(o.windowMs),
      '--json',
      ...(o.inbox ? ['--hooks-dir', o.inbox] : ['--no-hooks']),
    ],
    { env: { ...process.env, DATA_DIR: o.dataDir }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

/** A Claude Code transcript line: the person's prompt `i` of the session. */
export const promptLine = (sessionId: string, i: number, ts: number): object => ({
  type: 'user',
  uuid: `u-${i}`,
  parentUuid: i === 0 ? null : `u-${i - 1}`,
  sessionId,
  version: '2.1.70',
  cwd: '/bench',
  timestamp: new Date(ts).toISOString(),
  message: { role: 'user', content: `prompt ${i}` },
});

/** The hook Claude Code runs after that prompt (what `hooks install` sets up). */
export const promptHook = (sessionId: string, transcript: string, i: number): object => ({
  session_id: sessionId,
  transcript_path: transcript,
  cwd: '/bench',
  hook_event_name: 'UserPromptSubmit',
  prompt: `prompt ${i}`,
});
