import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Ends the hook commands graph-history installs, so `hooks uninstall` finds exactly those. */
export const HOOK_MARK = '# graph-history-hook';

/**
 * The folder a running `watch` takes Claude Code hooks from (one small file per hook). Per user;
 * it exists only while a watch runs, so hooks write nothing when none does.
 */
export function defaultHookInbox(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env['XDG_RUNTIME_DIR'];
  return runtime
    ? join(runtime, 'graph-history-hooks')
    : join(tmpdir(), `graph-history-${userInfo().uid}-hooks`);
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The shell command a hook runs (Claude Code runs hooks with `sh`). It writes the hook's JSON
 * (stdin) to a new file in the inbox, renamed into place so the watch never reads half of it,
 * and always exits 0. Only `sh`, `cat` and `mv`: it returns in milliseconds and cannot fail the
 * agent's turn. When no watch runs (no inbox folder) it only drains stdin.
 */
export function hookCommand(inbox: string): string {
  return (
    `d=${quote(inbox)}; if [ -d "$d" ]; then f="$d/.h$$"; ` +
    `cat > "$f" && mv "$f" "$d/h$$.json"; else cat > /dev/null; fi; exit 0 ${HOOK_MARK}`
  );
}
