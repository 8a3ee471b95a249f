import { cleanText, firstLine } from '../text';
import { tokenCount } from '../token-count';
import type { Fact, ToolResultFact, UsageFact } from './line';
import { hasNotification, notificationFacts } from './notification';
import { teammateMessages } from './teammate-messages';
import { LABEL_MAX, TEXT_MAX, promptKey, toolLabel, toolOpOf } from './tool-input';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const REJECTED = "The user doesn't want to proceed with this tool use";
const INTERRUPTED = '[Request interrupted by user';

/** Text of a message content: a string, or the text blocks of an array. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is Obj => isObj(b) && b['type'] === 'text' && typeof b['text'] === 'string')
    .map((b) => b['text'] as string)
    .join('\n');
}

function commandText(text: string): string {
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(text)?.[1]?.trim() ?? '';
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
  return `${name} ${args}`.trim();
}

export interface UserContext {
  sidechain: boolean;
  /** The first message of a sub-agent (no parent line). */
  root: boolean;
}

/** Facts of a text a user line carries. */
export function userTextFacts(text: string, ctx: UserContext): Fact[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (ctx.sidechain && ctx.root) return [{ kind: 'root_prompt', promptKey: promptKey(text) }];
  if (trimmed.includes('<teammate-message')) return teammateMessages(trimmed);
  if (hasNotification(trimmed)) return notificationFacts(trimmed, false);
  if (trimmed.startsWith(INTERRUPTED)) return [{ kind: 'interrupt' }];
  if (
    ctx.sidechain ||
    trimmed.startsWith('<local-command-') ||
    trimmed.startsWith('<system-reminder>')
  )
    return [];
  const shown = trimmed.includes('<command-name>') ? commandText(trimmed) : trimmed;
  const line = firstLine(shown, TEXT_MAX);
  return line === undefined ? [] : [{ kind: 'prompt', text: line }];
}

function toolResultFact(
  block: Obj,
  lineResult: unknown,
  single: boolean,
): ToolResultFact | undefined {
  const toolUseId = str(block['tool_use_id']);
  if (toolUseId === undefined) return undefined;
  const text = contentText(block['content']);
  const fact: ToolResultFact = {
    kind: 'tool_result',
    toolUseId,
    isError: block['is_error'] === true,
    rejected: text.includes(REJECTED) || (single && lineResult === 'User rejected tool use'),
    interrupted: text.trimStart().startsWith(INTERRUPTED),
    text: text.trim() === '' ? undefined : cleanText(text.trim(), TEXT_MAX),
  };
  if (single && isObj(lineResult)) {
    const agentId = str(lineResult['agentId']);
    if (agentId) fact.agentId = agentId;
    if (lineResult['isAsync'] === true || lineResult['status'] === 'async_launched')
      fact.asyncLaunched = true;
    const task = lineResult['task'];
    const taskId = isObj(task) ? task['id'] : undefined;
    if (typeof taskId === 'string' || typeof taskId === 'number')
      fact.createdTaskId = String(taskId);
    if (lineResult['status'] === 'teammate_spawned') {
      const id = str(lineResult['agent_id']) ?? str(lineResult['teammate_id']);
      if (id) fact.agentId = id;
      fact.asyncLaunched = true;
    }
  }
  return fact;
}

/** Facts of a `user` line: prompts, interrupts, notifications, tool results. */
export function userFacts(line: Obj, ctx: UserContext): Fact[] {
  const message = line['message'];
  if (!isObj(message) || line['isMeta'] === true || line['isCompactSummary'] === true) return [];
  const content = message['content'];
  if (typeof content === 'string') return userTextFacts(content, ctx);
  if (!Array.isArray(content)) return [];
  const results = content.filter((b): b is Obj => isObj(b) && b['type'] === 'tool_result');
  const facts: Fact[] = [];
  for (const block of content) {
    if (!isObj(block)) continue;
    if (block['type'] === 'tool_result') {
      const fact = toolResultFact(block, line['toolUseResult'], results.length === 1);
      if (fact) facts.push(fact);
    } else if (block['type'] === 'text' && typeof block['text'] === 'string') {
      facts.push(...userTextFacts(block['text'], ctx));
    }
  }
  return facts;
}

/** Facts of an `assistant` line: text, tool calls, API errors, and the message's token usage. */
export function assistantFacts(line: Obj): Fact[] {
  const message = line['message'];
  if (!isObj(message)) return [];
  const usage = usageFact(line, message);
  const facts = assistantContentFacts(line, message);
  return usage ? [...facts, usage] : facts;
}

/** The message's `usage`, with the id that makes it count once (its message id, else request id). */
function usageFact(line: Obj, message: Obj): UsageFact | undefined {
  const usage = message['usage'];
  const model = str(message['model']);
  if (!isObj(usage) || !model) return undefined;
  const messageId = str(message['id']);
  const requestId = str(line['requestId']);
  const id = messageId ?? requestId ?? str(line['uuid']);
  if (!id) return undefined;
  return {
    kind: 'usage',
    id: cleanText(id, LABEL_MAX),
    model: cleanText(model, LABEL_MAX),
    tokens: {
      input_tokens: tokenCount(usage['input_tokens']),
      cache_read_tokens: tokenCount(usage['cache_read_input_tokens']),
      cache_creation_tokens: tokenCount(usage['cache_creation_input_tokens']),
      output_tokens: tokenCount(usage['output_tokens']),
    },
    ...(messageId ? { messageId: cleanText(messageId, LABEL_MAX) } : {}),
    ...(requestId ? { requestId: cleanText(requestId, LABEL_MAX) } : {}),
  };
}

function assistantContentFacts(line: Obj, message: Obj): Fact[] {
  if (line['isApiErrorMessage'] === true) {
    const text = firstLine(contentText(message['content']), TEXT_MAX) ?? 'API error';
    return [{ kind: 'api_error', message: text }];
  }
  const content = message['content'];
  if (typeof content === 'string')
    return content.trim() ? [{ kind: 'text', text: cleanText(content.trim(), TEXT_MAX) }] : [];
  if (!Array.isArray(content)) return [];
  const facts: Fact[] = [];
  for (const block of content) {
    if (!isObj(block)) continue;
    const type = block['type'];
    if (type === 'text' && typeof block['text'] === 'string' && block['text'].trim() !== '') {
      facts.push({ kind: 'text', text: cleanText(block['text'].trim(), TEXT_MAX) });
    } else if (
      type === 'tool_use' &&
      typeof block['id'] === 'string' &&
      typeof block['name'] === 'string'
    ) {
      const input = isObj(block['input']) ? block['input'] : {};
      facts.push({
        kind: 'tool_use',
        id: block['id'],
        name: cleanText(block['name'], LABEL_MAX),
        label: toolLabel(block['name'], input),
        tool: toolOpOf(block['name'], input),
      });
    } else if (type === 'thinking' || type === 'redacted_thinking') {
      facts.push({ kind: 'alive' });
    }
  }
  return facts;
}
