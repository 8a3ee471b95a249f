import { createHash } from 'node:crypto';
import { cleanText, firstLine } from '../text';
import type { TodoInput, ToolOp } from './line';

/** Length limits for texts kept from a transcript. */
export const TEXT_MAX = 2_000;
export const LABEL_MAX = 120;

type Input = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A short hash of a sub-agent prompt: the 1.0.x link between a spawn call and its sidechain. */
export function promptKey(prompt: string): string {
  return createHash('sha256').update(prompt.trim()).digest('hex').slice(0, 24);
}

/** A list of task ids (`["1", 2]`); anything else in it is left out. */
function taskIdList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const ids = v
    .map((id) => (typeof id === 'number' ? String(id) : str(id)))
    .filter((id): id is string => id !== undefined && id.length > 0 && id.length <= 200);
  return ids.length > 0 ? ids.map((id) => cleanText(id, 200)) : undefined;
}

const TASK_STATUSES = new Set(['pending', 'in_progress', 'completed']);

function todoOf(raw: unknown): TodoInput | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const todo = raw as Input;
  const content = str(todo['content']) ?? str(todo['subject']);
  const status = str(todo['status']);
  if (content === undefined || status === undefined || !TASK_STATUSES.has(status)) return undefined;
  const id = str(todo['id']) ?? (typeof todo['id'] === 'number' ? String(todo['id']) : undefined);
  const activeForm = str(todo['activeForm']);
  return {
    ...(id !== undefined && id.length > 0 && id.length <= 200 ? { id: cleanText(id, 200) } : {}),
    content: cleanText(content, TEXT_MAX),
    status: status as TodoInput['status'],
    ...(activeForm !== undefined ? { activeForm: cleanText(activeForm, TEXT_MAX) } : {}),
  };
}

/** What a tool call means for the graph: spawns, task lists, polls, cancellations. */
export function toolOpOf(name: string, input: Input): ToolOp {
  const prompt = str(input['prompt']);
  if ((name === 'Task' || name === 'Agent') && prompt !== undefined) {
    const description = str(input['description']);
    const teammate = str(input['name']);
    return {
      op: 'spawn',
      agentType: cleanText(
        str(input['subagent_type']) || (teammate ? 'teammate' : 'general-purpose'),
        200,
      ),
      purpose: cleanText(
        description || teammate || firstLine(prompt, TEXT_MAX) || 'sub-agent',
        TEXT_MAX,
      ),
      promptKey: promptKey(prompt),
      // A teammate runs beside its lead; the lead does not wait for it.
      background: input['run_in_background'] === true || teammate !== undefined,
      ...(teammate ? { name: cleanText(teammate, 200) } : {}),
    };
  }
  const to = str(input['recipient']) ?? str(input['to']);
  if (name === 'SendMessage' && to !== undefined) {
    const text = str(input['content']) ?? str(input['message']) ?? str(input['summary']);
    return { op: 'message', to, ...(text ? { text: cleanText(text.trim(), TEXT_MAX) } : {}) };
  }
  if (name === 'AskUserQuestion') {
    const questions = Array.isArray(input['questions']) ? input['questions'] : [];
    const first = questions[0] as Input | undefined;
    const text = str(first?.['question']) ?? str(input['question']) ?? 'A question for the user';
    return { op: 'question', text: cleanText(text, TEXT_MAX) };
  }
  if (name === 'TodoWrite' && Array.isArray(input['todos'])) {
    const todos = input['todos'].map(todoOf).filter((t): t is TodoInput => t !== undefined);
    return { op: 'todos', todos };
  }
  const subject = str(input['subject']);
  if (name === 'TaskCreate' && subject !== undefined) {
    const activeForm = str(input['activeForm']);
    return {
      op: 'task_create',
      subject: cleanText(subject, TEXT_MAX),
      ...(activeForm ? { activeForm: cleanText(activeForm, TEXT_MAX) } : {}),
    };
  }
  const taskId = str(input['taskId']) ?? str(input['task_id']) ?? str(input['shell_id']);
  if (name === 'TaskUpdate' && taskId !== undefined) {
    const status = str(input['status']);
    const activeForm = str(input['activeForm']);
    const owner = str(input['owner']);
    const addBlockedBy = taskIdList(input['addBlockedBy'] ?? input['blockedBy']);
    const addBlocks = taskIdList(input['addBlocks'] ?? input['blocks']);
    return {
      op: 'task_update',
      taskId,
      ...(status ? { status } : {}),
      ...(subject ? { subject: cleanText(subject, TEXT_MAX) } : {}),
      ...(activeForm ? { activeForm: cleanText(activeForm, TEXT_MAX) } : {}),
      ...(owner !== undefined ? { owner: cleanText(owner, 200) } : {}),
      ...(addBlockedBy ? { addBlockedBy } : {}),
      ...(addBlocks ? { addBlocks } : {}),
    };
  }
  if (
    (name === 'TaskOutput' || name === 'AgentOutputTool' || name === 'BashOutput') &&
    taskId !== undefined
  ) {
    return { op: 'task_output', taskId, block: input['block'] !== false };
  }
  if (
    (name === 'TaskStop' || name === 'KillShell' || name === 'KillBash') &&
    taskId !== undefined
  ) {
    return { op: 'task_stop', taskId };
  }
  return { op: 'other' };
}

const LABEL_ARGS = [
  'description',
  'file_path',
  'notebook_path',
  'path',
  'pattern',
  'command',
  'url',
  'query',
  'subject',
];

function shortPath(value: string): string {
  const parts = value.split('/').filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : value;
}

/** A one-line description of a tool call for a node's headline, e.g. `Read …/lib/app.ex`. */
export function toolLabel(name: string, input: Input): string {
  for (const arg of LABEL_ARGS) {
    const value = str(input[arg]);
    if (value === undefined || value.trim() === '') continue;
    const shown = arg.endsWith('path') ? shortPath(value) : value;
    return firstLine(`${name} ${shown}`, LABEL_MAX) ?? name;
  }
  return cleanText(name, LABEL_MAX);
}
