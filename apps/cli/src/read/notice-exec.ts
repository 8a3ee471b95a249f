import { spawn } from 'node:child_process';
import type { Notice } from '@graph-history/client';
import { noticeEnv } from './notice-line';

/**
 * Runs `command` (through the shell) for one notice: the notice JSON on stdin, GH_NOTICE_* in its
 * environment, its output passed through. Resolves with its exit code (or the signal's name).
 */
export function execForNotice(
  command: string,
  notice: Notice,
  env: NodeJS.ProcessEnv,
): Promise<number | string> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      env: { ...env, ...noticeEnv(notice) },
      stdio: ['pipe', 'inherit', 'inherit'],
    });
    child.once('error', () => resolve('spawn failed'));
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    // a command that does not read its stdin closes it early: that is not an error
    child.stdin.once('error', () => undefined);
    child.stdin.end(`${JSON.stringify(notice)}\n`);
  });
}
