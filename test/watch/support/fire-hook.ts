import { spawn } from 'node:child_process';
import { hookCommand } from '@graph-history/cli/hooks/hook-inbox-dir';

/** Runs the command `hooks install` puts in Claude Code's settings, as Claude Code does (`sh -c`). */
export function fireHook(inbox: string, payload: unknown): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', hookCommand(inbox)], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('exit', (status) => resolve(status));
    child.stdin.on('error', () => undefined);
    child.stdin.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
  });
}
