import { LIMITS, type PayloadOf, type TaskStatus } from '@graph-history/domain';
import { type Json, isObject, str } from './json';
import { cleanText } from './text';

/** Todo statuses the graph has; other todos (`cancelled`) are left out of the list. */
const TODO_STATUS: Record<string, TaskStatus> = {
  pending: 'pending',
  in_progress: 'in_progress',
  completed: 'completed',
};

function tasksOf(list: unknown, contentField: string): PayloadOf<'tasks.updated'>['tasks'] {
  const items = Array.isArray(list) ? list.filter(isObject) : [];
  return items
    .filter((t) => Object.hasOwn(TODO_STATUS, String(t['status'])))
    .slice(0, LIMITS.tasks)
    .map((t) => ({
      ...(str(t['id']) !== undefined ? { id: cleanText(str(t['id'])!, LIMITS.shortText) } : {}),
      content: cleanText(str(t[contentField]) ?? '', LIMITS.text),
      status: TODO_STATUS[String(t['status'])]!,
    }));
}

/**
 * The task list of a todo-writing tool's input that holds `todos: [{id?, content, status}]`
 * (Cursor's `TodoWrite`, opencode's `todowrite`).
 */
export const todoTasks = (input: Json): PayloadOf<'tasks.updated'>['tasks'] =>
  tasksOf(input['todos'], 'content');

/** The task list of Codex's `update_plan {plan: [{step, status}]}`. */
export const planTasks = (args: Json): PayloadOf<'tasks.updated'>['tasks'] =>
  tasksOf(args['plan'], 'step');
