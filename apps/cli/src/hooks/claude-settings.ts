import { HOOK_MARK } from './hook-inbox-dir';

type Obj = Record<string, unknown>;

/** A Claude Code hook handler (`settings.json` → `hooks.<Event>[].hooks[]`). */
export type HookHandler =
  | { type: 'command'; command: string; timeout?: number }
  | {
      type: 'http';
      url: string;
      headers: Record<string, string>;
      allowedEnvVars: string[];
      timeout?: number;
    };

interface MatcherGroup {
  matcher?: string;
  hooks: HookHandler[];
}

/** The hooks installed: what a transcript shows late, and the spawn tools (renamed in 2.1.63). */
export const HOOK_EVENTS: ReadonlyArray<{ event: string; matcher?: string }> = [
  { event: 'SessionStart' },
  { event: 'SubagentStart' },
  { event: 'SubagentStop' },
  { event: 'PreToolUse', matcher: 'Task|Agent' },
  { event: 'PostToolUse', matcher: 'Task|Agent' },
  { event: 'PermissionRequest' },
  { event: 'Notification' },
  { event: 'Stop' },
];

/**
 * The hooks `--http` installs: each is posted to the ingestor, which makes the share's events of
 * it (see the adapters' hook events). PostToolUse, PostToolUseFailure and PermissionDenied answer
 * a permission prompt; a Notification only for a question (PermissionRequest tells the prompts).
 */
export const HTTP_HOOK_EVENTS: ReadonlyArray<{ event: string; matcher?: string }> = [
  { event: 'SessionStart' },
  { event: 'UserPromptSubmit' },
  { event: 'SubagentStart' },
  { event: 'SubagentStop' },
  { event: 'PermissionRequest' },
  { event: 'PostToolUse' },
  { event: 'PostToolUseFailure' },
  { event: 'PermissionDenied' },
  { event: 'Notification', matcher: 'elicitation_dialog' },
  { event: 'Stop' },
  { event: 'StopFailure' },
  { event: 'TaskCreated' },
  { event: 'TaskCompleted' },
  { event: 'TeammateIdle' },
];

/** Seconds Claude Code allows the hook (it takes milliseconds). */
const HOOK_TIMEOUT_S = 5;

/** The ingestor path graph-history's HTTP hooks post to (how `hooks uninstall` knows them). */
const OUR_HOOK_URL = /\/ingest\/v1\/graphs\/[A-Za-z0-9_-]{1,64}\/hooks\/claude-code$/;

/**
 * The HTTP hook handler that posts each hook to the ingestor's hook endpoint for `graphKey`,
 * authenticated by the secret key Claude Code reads from the environment variable `keyEnv`
 * (Claude Code fills `$VAR` in a header only for variables listed in `allowedEnvVars`), so the
 * key is never written into the settings file.
 */
export function httpHookHandler(
  ingestUrl: string,
  graphKey: string,
  keyEnv: string,
): HookHandler & { type: 'http' } {
  return {
    type: 'http',
    url: `${ingestUrl.replace(/\/+$/, '')}/ingest/v1/graphs/${graphKey}/hooks/claude-code`,
    headers: { Authorization: `Bearer $${keyEnv}` },
    allowedEnvVars: [keyEnv],
    timeout: HOOK_TIMEOUT_S,
  };
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function isOurs(handler: unknown): boolean {
  if (!isObj(handler)) return false;
  const { command, url } = handler;
  if (typeof command === 'string') return command.includes(HOOK_MARK);
  return handler['type'] === 'http' && typeof url === 'string' && OUR_HOOK_URL.test(url);
}

/** The settings without the hooks graph-history added; everything else is left as it was. */
export function withoutOurHooks(settings: Obj): Obj {
  const hooks = settings['hooks'];
  if (!isObj(hooks)) return settings;
  const kept: Obj = {};
  let removedAny = false;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      kept[event] = groups;
      continue;
    }
    const left: unknown[] = [];
    for (const group of groups) {
      if (!isObj(group) || !Array.isArray(group['hooks']) || !group['hooks'].some(isOurs)) {
        left.push(group);
        continue;
      }
      removedAny = true;
      const handlers = group['hooks'].filter((h) => !isOurs(h));
      if (handlers.length > 0) left.push({ ...group, hooks: handlers });
    }
    if (left.length > 0 || groups.length === 0) kept[event] = left;
  }
  if (!removedAny) return settings;
  // Rebuilt key by key so the file keeps its order.
  const out: Obj = {};
  for (const [key, value] of Object.entries(settings)) {
    if (key !== 'hooks') out[key] = value;
    else if (Object.keys(kept).length > 0) out[key] = kept;
  }
  return out;
}

/**
 * The settings with graph-history's hooks (replacing any it added before, command or HTTP): each
 * of HOOK_EVENTS running `command`, or with a handler of `httpHookHandler`, each of
 * HTTP_HOOK_EVENTS posting to the ingestor.
 */
export function withOurHooks(settings: Obj, command: string | HookHandler): Obj {
  const base = withoutOurHooks(settings);
  const hooks: Obj = isObj(base['hooks']) ? { ...base['hooks'] } : {};
  const handler: HookHandler =
    typeof command === 'string' ? { type: 'command', command, timeout: HOOK_TIMEOUT_S } : command;
  for (const { event, matcher } of handler.type === 'http' ? HTTP_HOOK_EVENTS : HOOK_EVENTS) {
    const group: MatcherGroup = { ...(matcher ? { matcher } : {}), hooks: [handler] };
    const existing = hooks[event];
    hooks[event] = Array.isArray(existing) ? [...existing, group] : [group];
  }
  return { ...base, hooks };
}

/** The groups graph-history added, per event, as JSON text: equal when the same hooks are in. */
export function ourHooks(settings: Obj): string[] {
  const hooks = settings['hooks'];
  if (!isObj(hooks)) return [];
  const found: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (isObj(group) && Array.isArray(group['hooks']) && group['hooks'].some(isOurs))
        found.push(JSON.stringify([event, group]));
    }
  }
  return found.sort();
}
