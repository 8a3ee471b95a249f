import type { GraphEvent } from '../api/types';
import { clock, count, quietSince, when } from '../model/format';

interface Props {
  events: readonly GraphEvent[];
  /** Index of the event shown; null when live (the newest). */
  index: number | null;
  onScrub(index: number): void;
  onLive(): void;
}

/** A slider over the retained events: dragging shows the page as of that event. */
export function Scrubber(p: Props) {
  const max = Math.max(0, p.events.length - 1);
  const at = p.index ?? max;
  const e = p.events[at];
  const label = e
    ? `event ${count(at + 1)} of ${count(p.events.length)}, ${e.type} at ${clock(e.created)}`
    : 'no events';
  return (
    <div class="scrubber">
      <label for="scrub">Time</label>
      <input
        id="scrub"
        type="range"
        min={0}
        max={max}
        step={1}
        value={at}
        disabled={p.events.length < 2}
        aria-valuetext={label}
        onInput={(ev) => p.onScrub(Number((ev.target as HTMLInputElement).value))}
      />
      <span class="scrub-label" aria-hidden="true">
        {p.index !== null
          ? `${clock(e?.created)} · #${at + 1}`
          : quietSince(e?.created) !== null
            ? `last event ${when(e!.created)}`
            : 'now'}
      </span>
      <button
        type="button"
        // following the newest of a quiet share is not shown as live (green)
        class={p.index === null && quietSince(e?.created) === null ? 'live-on' : ''}
        onClick={p.onLive}
        aria-pressed={p.index === null}
      >
        Live
      </button>
    </div>
  );
}
