import { type Json, isObject, str } from '../json';
import { setOwn } from '../own-record';
import { firstLine } from '../text';
import type { ChatLine } from './chat-line';
import type { GeminiState } from './state';

const PURPOSE_MAX = 2_000;

/** The messages a line holds: itself, or a checkpoint's `$set.messages`. */
export function messagesOf(line: ChatLine): Json[] {
  if (line.record.kind === 'message') return [line.record.value];
  if (line.record.kind !== 'set') return [];
  const messages = line.record.value['messages'];
  return Array.isArray(messages) ? messages.filter(isObject) : [];
}

export function toolCallsOf(message: Json): Json[] {
  const calls = message['toolCalls'];
  return Array.isArray(calls) ? calls.filter(isObject) : [];
}

/** What a sub-agent was asked: `invoke_agent`'s `prompt`, else the first text argument. */
function purposeOf(args: Json): string | undefined {
  const text = str(args['prompt']) ?? Object.values(args).find((v) => typeof v === 'string');
  return typeof text === 'string' ? firstLine(text, PURPOSE_MAX) : undefined;
}

/**
 * Notes the tool calls of a line that ran a sub-agent (their record carries `agentId`), before
 * lines are applied: a sub-agent's file starts before its caller records the call, so a back-fill
 * learns who called it from lines read in the same pass.
 */
export function noteAgentCalls(state: GeminiState, line: ChatLine): void {
  for (const message of messagesOf(line)) {
    for (const call of toolCallsOf(message)) {
      const agentId = str(call['agentId']);
      const callId = str(call['id']);
      if (agentId === undefined || callId === undefined) continue;
      const args = isObject(call['args']) ? call['args'] : {};
      const purpose = purposeOf(args);
      setOwn(state.agentCalls, agentId, {
        callerFile: line.fileId,
        callId,
        agentType: str(args['agent_name']) ?? str(call['name']) ?? 'subagent',
        ...(purpose !== undefined ? { purpose } : {}),
      });
    }
  }
}
