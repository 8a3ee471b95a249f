import { LIMITS } from '@graph-history/domain';
import { cleanText, firstLine } from '../text';
import type { Emitter } from './emitter';
import { isObject, str } from './rollout-line';
import type { Run } from './run';
import type { ThreadMemo } from './state';
import { tokenCount } from './token-usage';

type Json = Record<string, unknown>;

const SUMMARY_MAX = 2_000;

const summary = (text: unknown): string | undefined =>
  typeof text === 'string' ? firstLine(text, SUMMARY_MAX) : undefined;

function commandText(p: Json): string {
  const command = p['command'];
  if (Array.isArray(command)) return command.filter((c) => typeof c === 'string').join(' ');
  return typeof command === 'string' ? command : '';
}

/** The approval or question an event asks of the user, if it is one. */
function attentionOf(
  type: string,
  p: Json,
): { reason: 'permission' | 'question'; message: string } | undefined {
  switch (type) {
    case 'exec_approval_request':
      return { reason: 'permission', message: `Approve running: ${commandText(p)}`.trim() };
    case 'apply_patch_approval_request':
      return { reason: 'permission', message: str(p['reason']) ?? 'Approve applying a patch' };
    case 'request_permissions':
      return { reason: 'permission', message: str(p['reason']) ?? 'Approve more permissions' };
    case 'request_user_input': {
      const questions = p['questions'];
      const first = Array.isArray(questions) && isObject(questions[0]) ? questions[0] : {};
      return { reason: 'question', message: str(first['question']) ?? 'Answer a question' };
    }
    case 'elicitation_request':
      return { reason: 'question', message: str(p['message']) ?? 'Answer a request' };
    default:
      return undefined;
  }
}

function turnEnded(memo: ThreadMemo, p: Json, emit: Emitter): void {
  const text = summary(p['last_agent_message']);
  const done = text !== undefined ? { summary: text } : {};
  // A sub-agent's turn is its task: Codex reports it Completed (AgentStatus) when the turn ends.
  if (memo.depth) emit.send('ended', memo, { state: 'completed', ...done });
  else emit.idle(memo, text);
}

function turnAborted(memo: ThreadMemo, p: Json, emit: Emitter): void {
  const reason = str(p['reason']) ?? 'interrupted';
  const text = reason === 'interrupted' ? 'Interrupted by the user.' : `Turn aborted (${reason}).`;
  if (memo.depth) emit.send('ended', memo, { state: 'canceled', summary: text });
  else emit.idle(memo, text);
}

function userMessage(memo: ThreadMemo, message: unknown, emit: Emitter): void {
  const text = summary(message);
  if (text === undefined) return;
  if (!memo.titled && !memo.depth) {
    memo.titled = emit.send('title', memo, { title: cleanText(text, LIMITS.shortText) });
  }
  if (memo.state === 'working' && memo.prompt === text) return;
  memo.prompt = text;
  emit.send('status', memo, { state: 'working', summary: text });
}

/** The text of a turn item's `content` (`[{type: "text", text}]`). */
function itemText(item: Json): string | undefined {
  const content = Array.isArray(item['content']) ? item['content'].filter(isObject) : [];
  const text = content.map((c) => str(c['text']) ?? '').join('');
  return text === '' ? undefined : text;
}

/** An `item_completed` turn item (newer versions write these instead of the messages' events). */
function itemCompleted(memo: ThreadMemo, item: Json, emit: Emitter): void {
  switch (item['type']) {
    case 'UserMessage':
      userMessage(memo, itemText(item), emit);
      return;
    case 'AgentMessage':
      emit.activity(memo, summary(itemText(item)));
      return;
    default:
      emit.activity(memo);
  }
}

/** Applies an `event_msg` line of a created node; false when its type is not used. */
export function routeEventMsg(_run: Run, memo: ThreadMemo, p: Json, emit: Emitter): boolean {
  const type = str(p['type']) ?? '';
  const attention = attentionOf(type, p);
  if (attention) {
    emit.send('attention.raised', memo, {
      reason: attention.reason,
      message: cleanText(attention.message, SUMMARY_MAX),
    });
    return true;
  }
  if (type === 'token_count') {
    tokenCount(memo, p, emit);
    return true;
  }
  emit.clearAttention(memo);
  switch (type) {
    case 'task_started':
    case 'turn_started':
      if (memo.state !== 'working') emit.send('status', memo, { state: 'working' });
      return true;
    case 'task_complete':
    case 'turn_complete':
      turnEnded(memo, p, emit);
      return true;
    case 'turn_aborted':
      turnAborted(memo, p, emit);
      return true;
    case 'user_message':
      userMessage(memo, p['message'], emit);
      return true;
    case 'item_completed':
      if (isObject(p['item'])) itemCompleted(memo, p['item'], emit);
      return true;
    case 'agent_message':
      emit.activity(memo, summary(p['message']));
      return true;
    case 'thread_name_updated': {
      const name = summary(p['thread_name']);
      if (name !== undefined && !memo.depth) {
        memo.titled = emit.send('title', memo, { title: cleanText(name, LIMITS.shortText) });
      }
      return true;
    }
    case 'exec_command_end':
    case 'patch_apply_end':
    case 'agent_reasoning':
    case 'context_compacted':
    case 'mcp_tool_call_end':
    case 'web_search_end':
      emit.activity(memo);
      return true;
    default:
      return false;
  }
}
