import { HOOK_MARK } from './hook-inbox-dir';

type Obj = Record<string, unknown>;

/** A Claude Code hook handler (`settings.json` → `hooks.<Event>[].hooks[]`). */
interface HookHandler {
  type: 'command';
  command: string;
  timeout?: number;
}

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
  { event: 'Notification' },
  { event: 'Stop' },
];

/** Seconds Claude Code allows the hook (it takes milliseconds). */
const HOOK_TIMEOUT_S = 5;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function isOurs(handler: unknown): boolean {
  return (
    isObj(handler) &&
    typeof handler['command'] === 'string' &&
    handler['command'].includes(HOOK_MARK)
  );
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

/** The settings with graph-history's hooks (replacing any it added before), each running `command`. */
export function withOurHooks(settings: Obj, command: string): Obj {
  const base = withoutOurHooks(settings);
  const hooks: Obj = isObj(base['hooks']) ? { ...base['hooks'] } : {};
  for (const { event, matcher } of HOOK_EVENTS) {
    const group: MatcherGroup = {
      ...(matcher ? { matcher } : {}),
      hooks: [{ type: 'command', command, timeout: HOOK_TIMEOUT_S }],
    };
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
