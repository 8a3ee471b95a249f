import {
  LIMITS,
  type PayloadOf,
  type WatchEvent,
  type WatchEventType,
} from '@graph-history/domain';
import { eventKey } from '../event-key';
import { eventSource } from '../event-source';
import { cleanText, firstLine } from '../text';
import { PROVIDER } from './emitter';
import { createdKey, endedKey, titleKey, turnStartKey } from './fact-keys';
import { LABEL_MAX, TEXT_MAX, toolLabel } from './tool-input';

/** `source.adapter` of events made from hooks posted to the ingestor (`claude-code-hooks/1`). */
export const HOOK_ADAPTER = { name: 'claude-code-hooks', version: 1 } as const;

const TITLE_MAX = 200;
const TIME_DIGITS = 13;

/** What the graph already holds that a hook's events depend on (read by the ingestor). */
export interface HookView {
  /** A transcript (a `watch`) already sent events of the hook's session. */
  transcriptFeeds: boolean;
  /** When the newest attention the hooks raised on the hook's node was raised, if still open. */
  openAskAt?: number;
}

export interface HookEvents {
  events: WatchEvent[];
  /** Why the payload cannot be used (`param` of the 400), when it cannot. */
  problem?: { param: string; message: string };
}

type Obj = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
const time = (ms: number): string => String(ms).padStart(TIME_DIGITS, '0');

/** The node a hook concerns: the session, or `<session>/<agent_id>` inside a sub-agent. */
export function hookNode(payload: Obj): string | undefined {
  const sessionId = str(payload['session_id']);
  if (!sessionId) return undefined;
  const agentId = str(payload['agent_id']);
  return agentId ? `${sessionId}/${agentId}` : sessionId;
}

/** Keys of the attention the hooks raise on `ref` and of its clearing (`HookView.openAskAt`). */
export const askKeyPrefix = (ref: string): string => `${ref}:hook.ask:`;
export const answeredKeyPrefix = (ref: string): string => `${ref}:hook.answered:`;
/** The time an ask or answered key names (the ask's). */
export const keyTime = (key: string): number => Number(key.slice(-TIME_DIGITS));

/**
 * Which keys of the graph only a transcript's events of `sessionId` have: every key under
 * `<session>:` (its main file's lines, and hooks a `watch` took, `<session>:hook-…`) but the
 * fact keys hooks share and the keys of this module (`<session>:hook.…`).
 */
export function transcriptKeyRule(sessionId: string): {
  prefix: string;
  exceptPrefixes: string[];
  exceptKeys: string[];
} {
  return {
    prefix: `${sessionId}:`,
    exceptPrefixes: [`${sessionId}:hook.`, `${sessionId}:turn:`],
    exceptKeys: [createdKey(sessionId, 'started'), titleKey(sessionId)],
  };
}

/** Hooks whose events depend on `HookView.transcriptFeeds` (turn states, task activity). */
const TURN_HOOKS = new Set(['UserPromptSubmit', 'Stop', 'TaskCreated', 'TaskCompleted']);
/** Hooks that answer an open attention (`HookView.openAskAt`). */
const ANSWER_HOOKS = new Set([
  'UserPromptSubmit',
  'Stop',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionDenied',
  'ElicitationResult',
]);

/** Which parts of the HookView a hook's events depend on: the others need not be read. */
export function hookViewNeeds(payload: Obj): { transcriptFeeds: boolean; openAsk: boolean } {
  const event = str(payload['hook_event_name']) ?? '';
  return { transcriptFeeds: TURN_HOOKS.has(event), openAsk: ANSWER_HOOKS.has(event) };
}

const ASK_REASONS: Record<string, 'permission' | 'question'> = {
  permission_prompt: 'permission',
  elicitation_dialog: 'question',
};

class HookEmitter {
  readonly events: WatchEvent[] = [];
  constructor(
    readonly node: string,
    private readonly event: string,
    private readonly at: number,
  ) {}

  push<T extends WatchEventType>(type: T, ref: string, payload: PayloadOf<T>, key?: string) {
    const own = eventKey(ref, `hook.${this.event}`, time(this.at), type);
    this.events.push({
      key: key ?? own,
      type,
      created: this.at,
      node: ref,
      source: eventSource(PROVIDER, HOOK_ADAPTER, undefined),
      payload,
    } as WatchEvent);
  }

  ask(reason: PayloadOf<'attention.raised'>['reason'], message: string | undefined): void {
    const payload = message ? { reason, message: cleanText(message, TEXT_MAX) } : { reason };
    this.push('attention.raised', this.node, payload, `${askKeyPrefix(this.node)}${time(this.at)}`);
  }

  /** Clears the attention the hooks raised, keyed by the ask it answers (sent once however often). */
  answer(view: HookView): void {
    if (view.openAskAt === undefined) return;
    const key = `${answeredKeyPrefix(this.node)}${time(view.openAskAt)}`;
    this.push('attention.cleared', this.node, {}, key);
  }
}

function toolText(payload: Obj): string {
  const name = str(payload['tool_name']) ?? 'a tool';
  return toolLabel(name, obj(payload['tool_input']));
}

/**
 * The WatchEvents of one Claude Code hook payload posted to the ingestor, dated `receivedAt`.
 * Every payload first creates its session (and its sub-agent, for a hook fired inside one) with
 * the transcript's own creation keys, so the first hook of a session creates it and a transcript
 * read later adds no second node. Facts both paths report use fact keys (fact-keys.ts): an
 * agent's end, a session's title. Turn states (`status`) come from hooks only while no transcript
 * feeds the session (`view.transcriptFeeds`); attention comes from hooks alone (a transcript
 * never shows a pending prompt) and is cleared by the hook that answers it.
 */
export function claudeCodeHookEvents(payload: Obj, receivedAt: number, view: HookView): HookEvents {
  const sessionId = str(payload['session_id']);
  const event = str(payload['hook_event_name']);
  if (!sessionId || sessionId.length > LIMITS.ref / 2 || sessionId.includes('/'))
    return problem('session_id', 'A hook payload needs its session_id (a Claude Code session id).');
  if (!event || event.length > LIMITS.shortText)
    return problem('hook_event_name', 'A hook payload needs its hook_event_name.');
  const node = hookNode(payload)!;
  if (node.length > LIMITS.ref) return problem('agent_id', 'The agent_id is too long.');
  const em = new HookEmitter(node, event, receivedAt);
  const cwd = str(payload['cwd']);
  em.push(
    'session.started',
    sessionId,
    cwd ? { cwd: cleanText(cwd, TEXT_MAX) } : {},
    createdKey(sessionId, 'started'),
  );
  if (node !== sessionId) {
    const agentType = cleanText(str(payload['agent_type']) ?? 'agent', TITLE_MAX);
    em.push(
      'agent.spawned',
      node,
      { parent: sessionId, agent_type: agentType, purpose: agentType, background: true },
      createdKey(node, 'spawned'),
    );
  }
  const turns = !view.transcriptFeeds;
  switch (event) {
    case 'SessionStart': {
      const title = str(payload['session_title']);
      if (title)
        em.push('title', sessionId, { title: cleanText(title, TITLE_MAX) }, titleKey(sessionId));
      break;
    }
    case 'UserPromptSubmit': {
      const prompt = str(payload['prompt']);
      if (prompt)
        em.push('title', sessionId, { title: cleanText(prompt, TITLE_MAX) }, titleKey(sessionId));
      em.answer(view);
      const promptId = str(payload['prompt_id']);
      if (turns)
        em.push(
          'status',
          sessionId,
          { state: 'working', ...(prompt ? { summary: cleanText(prompt, TEXT_MAX) } : {}) },
          promptId ? turnStartKey(sessionId, promptId.slice(0, 100)) : undefined,
        );
      break;
    }
    case 'Stop': {
      em.answer(view);
      const last = str(payload['last_assistant_message']);
      if (turns)
        em.push('status', sessionId, {
          state: 'idle',
          ...(last ? { summary: cleanText(last, TEXT_MAX) } : {}),
        });
      break;
    }
    case 'StopFailure':
      em.ask('error', str(payload['error_details']) ?? str(payload['error']));
      break;
    case 'SubagentStop': {
      if (node === sessionId) break;
      const last = str(payload['last_assistant_message']);
      em.push(
        'ended',
        node,
        { state: 'completed', ...(last ? { summary: cleanText(last, TEXT_MAX) } : {}) },
        endedKey(node),
      );
      break;
    }
    case 'PermissionRequest':
      em.ask('permission', `Asks to use ${toolText(payload)}`);
      break;
    case 'Notification': {
      const reason = ASK_REASONS[str(payload['notification_type']) ?? ''];
      if (reason) em.ask(reason, str(payload['message']));
      break;
    }
    case 'Elicitation':
      em.ask('question', str(payload['message']));
      break;
    case 'PostToolUse':
    case 'PostToolUseFailure':
    case 'PermissionDenied':
    case 'ElicitationResult':
      em.answer(view);
      break;
    case 'TaskCreated':
    case 'TaskCompleted': {
      const subject = str(payload['task_subject']);
      const done = event === 'TaskCompleted' ? 'Task completed' : 'Task created';
      if (turns)
        em.push('activity', node, {
          summary: firstLine(subject ? `${done}: ${subject}` : done, LABEL_MAX) ?? done,
        });
      break;
    }
    case 'TeammateIdle':
      if (node !== sessionId) em.push('status', node, { state: 'idle' });
      break;
    default:
      break;
  }
  return { events: em.events };
}

function problem(param: string, message: string): HookEvents {
  return { events: [], problem: { param, message } };
}
