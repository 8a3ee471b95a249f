import { LIMITS, payloadText, type PayloadOf } from '@graph-history/domain';
import { cleanText } from '../text';
import type { TodoInput, ToolOp } from './line';

type TaskPayload = PayloadOf<'tasks.updated'>['tasks'];

/**
 * The payload of `tasks.updated`, within ingest's limits: ids are dropped when a list repeats one
 * (they must be unique), and a list too large for one event is made to fit (fitTasks).
 */
export function tasksPayload(tasks: readonly TodoInput[]): TaskPayload {
  return fitTasks(listPayload(tasks));
}

function listPayload(tasks: readonly TodoInput[]): TaskPayload {
  const ids = tasks.map((t) => t.id).filter((id) => id !== undefined);
  const keepIds = new Set(ids).size === ids.length;
  return tasks.slice(0, LIMITS.tasks).map((t) => ({
    ...(keepIds && t.id !== undefined ? { id: t.id } : {}),
    content: t.content,
    status: t.status,
    ...(t.activeForm !== undefined ? { active_form: t.activeForm } : {}),
    ...(t.owner !== undefined ? { owner: t.owner } : {}),
    ...(t.blockedBy !== undefined ? { blocked_by: t.blockedBy } : {}),
  }));
}

/** The text of a `tasks.updated` payload holding `tasks` (see LIMITS.payloadText). */
const sizeOf = (tasks: TaskPayload): number => payloadText({ tasks });

/**
 * A list whose payload exceeds LIMITS.payloadText, made to fit while keeping every task and its
 * status (so counts stay true): the texts (content, active form) are shortened, all to the same
 * length, as little as needed; if that is not enough, blockers are dropped, then the last tasks.
 */
export function fitTasks(tasks: TaskPayload): TaskPayload {
  if (sizeOf(tasks) <= LIMITS.payloadText) return tasks;
  const cut = (max: number): TaskPayload =>
    tasks.map((t) => ({
      ...t,
      content: cleanText(t.content, max),
      ...(t.active_form !== undefined ? { active_form: cleanText(t.active_form, max) } : {}),
    }));
  let [low, high] = [1, LIMITS.text];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sizeOf(cut(mid)) <= LIMITS.payloadText) low = mid;
    else high = mid - 1;
  }
  let fitted = cut(low);
  if (sizeOf(fitted) > LIMITS.payloadText)
    fitted = fitted.map(({ blocked_by: _dropped, ...t }) => t);
  while (fitted.length > 0 && sizeOf(fitted) > LIMITS.payloadText) fitted = fitted.slice(0, -1);
  return fitted;
}

const STATUSES = new Set<string>(['pending', 'in_progress', 'completed']);

const union = (a: readonly string[] | undefined, b: readonly string[]): string[] => [
  ...new Set([...(a ?? []), ...b]),
];

/** A task's owner after a TaskUpdate: an empty owner unassigns it. */
function withOwner(task: TodoInput, owner: string | undefined): TodoInput {
  if (owner === undefined) return task;
  const next: TodoInput = { ...task, owner };
  if (owner === '') delete next.owner;
  return next;
}

/** The list after a TaskUpdate, or undefined when it changes nothing (unknown id, same values). */
export function updatedTasks(
  tasks: readonly TodoInput[],
  op: Extract<ToolOp, { op: 'task_update' }>,
): TodoInput[] | undefined {
  const index = tasks.findIndex((t) => t.id === op.taskId);
  if (index < 0) return undefined;
  if (op.status === 'deleted') return tasks.filter((_, i) => i !== index);
  const current = tasks[index]!;
  const next: TodoInput = withOwner(
    {
      ...current,
      ...(op.status !== undefined && STATUSES.has(op.status)
        ? { status: op.status as TodoInput['status'] }
        : {}),
      ...(op.subject !== undefined ? { content: op.subject } : {}),
      ...(op.activeForm !== undefined ? { activeForm: op.activeForm } : {}),
      ...(op.addBlockedBy ? { blockedBy: union(current.blockedBy, op.addBlockedBy) } : {}),
    },
    op.owner,
  );
  const blocks = new Set(op.addBlocks ?? []);
  const list = tasks.map((t, i) => {
    if (i === index) return next;
    if (!blocks.has(t.id ?? '')) return t;
    return { ...t, blockedBy: union(t.blockedBy, [op.taskId]) };
  });
  return JSON.stringify(list) === JSON.stringify(tasks) ? undefined : list;
}

/**
 * The id Claude Code gave a created task: `toolUseResult.task.id`, else the `Task #N` of the
 * result text, else the next number after the list's numeric ids (Claude Code counts from 1).
 */
export function createdTaskId(
  tasks: readonly TodoInput[],
  resultId: string | undefined,
  text: string | undefined,
): string {
  if (resultId) return resultId;
  const fromText = text ? /Task #(\d+)/.exec(text)?.[1] : undefined;
  if (fromText) return fromText;
  const numbers = tasks.map((t) => Number(t.id)).filter((n) => Number.isInteger(n));
  return String(Math.max(0, ...numbers) + 1);
}
