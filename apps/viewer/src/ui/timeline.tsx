import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { GraphEvent } from '../api/types';
import { clock } from '../model/format';
import { EventChanges } from './event-changes';
import { useViewport } from './use-viewport';
import { isolated, UserText } from './user-text';
import { plainText } from '../model/plain-text';

const ROW = 26;

interface Props {
  events: readonly GraphEvent[];
  /** Index of the moment shown (events after it are in its future); null when live. */
  momentIndex: number | null;
  selectedId: string | null;
  onSelect(id: string | null): void;
  onShowMoment(id: string): void;
  onSelectNode(id: string): void;
  nameOf(id: string): string;
}

/** What an event said, in a few words. */
function gist(e: GraphEvent): string {
  const p = e.payload;
  for (const k of ['summary', 'state', 'purpose', 'title', 'reason', 'text'])
    if (typeof p[k] === 'string' && p[k])
      return (
        plainText(String(p[k]))
          .split('\n')
          .find((l) => l.trim()) ?? ''
      );
  return '';
}

/** The retained events, newest first, filterable by type; choosing one shows what it changed. */
export function Timeline(p: Props) {
  const [type, setType] = useState('');
  const types = useMemo(() => [...new Set(p.events.map((e) => e.type))].sort(), [p.events]);
  const index = useMemo(() => new Map(p.events.map((e, i) => [e.id, i])), [p.events]);
  const shown = useMemo(
    () => p.events.filter((e) => !type || e.type === type).reverse(),
    [p.events, type],
  );
  const box = useRef<HTMLDivElement>(null);
  const vp = useViewport(box, shown.length, ROW);
  const selected = p.selectedId ? p.events[index.get(p.selectedId) ?? -1] : undefined;
  // the row of the moment shown: the newest shown event at or before it
  const momentRow =
    p.momentIndex === null ? -1 : shown.findIndex((e) => (index.get(e.id) ?? 0) <= p.momentIndex!);
  const momentId = shown[momentRow]?.id ?? null;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // scrubbed back, the list moves to the moment (a third down); live, to the newest
    el.scrollTop = momentRow < 0 ? 0 : Math.max(0, momentRow * ROW - el.clientHeight / 3);
  }, [momentId, type]);

  return (
    <section class="panel timeline" aria-labelledby="timeline-title">
      <header class="panel-head">
        <h2 id="timeline-title">Events</h2>
        <label>
          <span class="sr-only">Event type</span>
          <select value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
            <option value="">all types ({p.events.length})</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </header>
      <div class="event-list" ref={box}>
        <ul style={{ height: `${shown.length * ROW}px` }} aria-label="Events, newest first">
          {shown.slice(vp.first, vp.last).map((e, k) => {
            const future = p.momentIndex !== null && (index.get(e.id) ?? 0) > p.momentIndex;
            return (
              <li key={e.id} style={{ top: `${(vp.first + k) * ROW}px` }}>
                <button
                  type="button"
                  class={`event${e.id === p.selectedId ? ' selected' : ''}${future ? ' future' : ''}${e.id === momentId ? ' moment' : ''}`}
                  aria-pressed={e.id === p.selectedId}
                  aria-current={e.id === momentId ? 'time' : undefined}
                  onClick={() => p.onSelect(e.id === p.selectedId ? null : e.id)}
                >
                  <span class="time">{clock(e.created)}</span>
                  <span class="type">{e.type}</span>
                  <span class="who" title={isolated(p.nameOf(e.node_id))}>
                    <UserText text={p.nameOf(e.node_id)} />
                  </span>
                  <span class="gist" title={isolated(gist(e))}>
                    <UserText text={gist(e)} />
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
      {selected && (
        <EventChanges
          event={selected}
          nameOf={p.nameOf}
          onSelectNode={p.onSelectNode}
          onShowMoment={() => p.onShowMoment(selected.id)}
        />
      )}
    </section>
  );
}
