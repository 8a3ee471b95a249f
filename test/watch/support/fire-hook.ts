import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const RELAY = join(
  __dirname,
  '..',
  '..',
  '..',
  'apps',
  'cli',
  'dist',
  'hooks',
  'hook-relay.js',
);

/** Runs the BUILT hook relay (`pnpm build` first) exactly as a Claude Code hook does. */
export function fireHook(socket: string, payload: unknown): Promise<number | null> {
  if (!existsSync(RELAY)) throw new Error(`${RELAY} is missing: build first (pnpm build)`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RELAY, '--graph-history-hook', socket]);
    child.on('exit', (status) => resolve(status));
    child.stdin.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
  });
}
