import { EventScript } from './watch-events';

/**
 * A session `s` with `count` tasks.updated events of `tasks` tasks of `chars` characters each:
 * large stored rows (1,000 x 3,900 is ~3.9 MB an event, the largest the ingest accepted).
 */
export function largeTaskEvents(count: number, tasks: number, chars: number): EventScript {
  const s = new EventScript().session('s');
  for (let i = 0; i < count; i++)
    s.tasks(
      's',
      Array.from({ length: tasks }, (_, t) => ({
        id: String(t),
        content: `${i}:${t}:`.padEnd(chars, 'x'),
        status: 'pending',
      })),
    );
  return s;
}
