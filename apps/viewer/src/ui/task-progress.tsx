import type { TaskCounts } from '../api/types';

/** Tasks done out of all, as a bar and as text. */
export function TaskProgress({ t }: { t: TaskCounts }) {
  if (!t.total) return <span class="tasks" />;
  const pct = Math.round((t.completed / t.total) * 100);
  return (
    <span
      class="tasks"
      title={`${t.completed} completed, ${t.in_progress} in progress, ${t.pending} pending`}
    >
      <span class="bar" aria-hidden="true">
        <span style={{ width: `${pct}%` }} />
      </span>
      {t.completed}/{t.total}
    </span>
  );
}
