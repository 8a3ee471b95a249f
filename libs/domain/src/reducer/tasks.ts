import { NodeRecord, TaskCounts } from '../node';
import { TaskItem } from '../records';
import { EventOf } from '../watch-event';
import { shiftOpenTasks } from './blocked';
import { EventContext } from './event-context';
import { jsonEqual } from './json-equal';

export const NO_TASKS: TaskCounts = Object.freeze({
  total: 0,
  pending: 0,
  in_progress: 0,
  completed: 0,
  open: 0,
});

type TaskInput = EventOf<'tasks.updated'>['payload']['tasks'][number];

/**
 * Ids of a new list: the given id, else `task_<position>` (1-based); a generated id that another
 * item of the list already uses gets a `_2`, `_3`… suffix.
 */
function taskIds(items: TaskInput[]): string[] {
  const taken = new Set(items.flatMap((t) => (t.id === undefined ? [] : [t.id])));
  return items.map((item, i) => {
    if (item.id !== undefined) return item.id;
    let id = `task_${i + 1}`;
    for (let n = 2; taken.has(id); n++) id = `task_${i + 1}_${n}`;
    taken.add(id);
    return id;
  });
}

/** Owner and blockers travel together: both when the item gave either, neither otherwise. */
function assignment(item: TaskInput): Pick<TaskItem, 'owner' | 'blocked_by'> {
  if (item.owner === undefined && item.blocked_by === undefined) return {};
  return { owner: item.owner ?? null, blocked_by: item.blocked_by ?? [] };
}

/** The new list; an item keeps `created` of the previous item with its id, and `updated` unless it changed. */
export function nextTaskList(
  previous: TaskItem[] | undefined,
  items: TaskInput[],
  now: number,
): TaskItem[] {
  const before = new Map((previous ?? []).map((t) => [t.id, t]));
  const ids = taskIds(items);
  return items.map((item, i) => {
    const id = ids[i]!;
    const old = before.get(id);
    const activeForm = item.active_form ?? null;
    const assigned = assignment(item);
    const same =
      old !== undefined &&
      old.content === item.content &&
      old.status === item.status &&
      old.active_form === activeForm &&
      jsonEqual([old.owner, old.blocked_by], [assigned.owner, assigned.blocked_by]);
    return {
      id,
      content: item.content,
      status: item.status,
      active_form: activeForm,
      ...assigned,
      created: old?.created ?? now,
      updated: same ? old.updated : now,
    };
  });
}

export function countTasks(tasks: TaskItem[]): TaskCounts {
  const counts = { total: tasks.length, pending: 0, in_progress: 0, completed: 0, open: 0 };
  for (const task of tasks) counts[task.status]++;
  counts.open = counts.pending + counts.in_progress;
  return counts;
}

export function updateTasks(
  ctx: EventContext,
  rec: NodeRecord,
  ev: EventOf<'tasks.updated'>,
): void {
  const tasks = nextTaskList(ctx.state.tasks.get(rec.no), ev.payload.tasks, ctx.created);
  ctx.state.tasks.set(rec.no, tasks);
  ctx.taskSnapshot = { nodeNo: rec.no, seq: ctx.seq, tasks: tasks.map((t) => ({ ...t })) };
  const openBefore = rec.taskCounts.open;
  rec.taskCounts = countTasks(tasks);
  shiftOpenTasks(ctx, rec.no, rec.taskCounts.open - openBefore);
}
