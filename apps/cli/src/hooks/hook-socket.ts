import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Marks the hook commands graph-history installs, so `hooks uninstall` finds exactly those. */
export const HOOK_MARK = '--graph-history-hook';

/**
 * Where a running `watch` listens for Claude Code hooks: a unix socket (a named pipe on Windows)
 * per user. Paths of unix sockets are short (about 100 bytes), hence the temporary folder.
 */
export function defaultHookSocket(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\graph-history-${userInfo().username}`;
  const runtime = env['XDG_RUNTIME_DIR'];
  return runtime
    ? join(runtime, 'graph-history-hooks.sock')
    : join(tmpdir(), `graph-history-${userInfo().uid}.sock`);
}
