import type { LiveStatus } from '../live/live-feed';
import { clock, quietSince, when } from '../model/format';

/** Whether the page follows the share live, is reconnecting, or shows a past moment. */
export function LiveBadge({
  status,
  pastAt,
  lastEvent,
  onLive,
}: {
  status: LiveStatus;
  pastAt: number | null;
  /** The share's newest event: a share quiet for long is not shown as live now. */
  lastEvent: number | null;
  onLive(): void;
}) {
  if (pastAt !== null)
    return (
      <span class="live-badge past" role="status">
        <span class="dot" aria-hidden="true" /> Paused at {clock(pastAt)}{' '}
        <button type="button" onClick={onLive}>
          Go live
        </button>
      </span>
    );
  const quiet = status === 'live' ? quietSince(lastEvent) : null;
  if (quiet !== null)
    return (
      <span class="live-badge quiet" role="status">
        <span class="dot" aria-hidden="true" /> Quiet · last active {when(quiet)}
      </span>
    );
  const text = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…' }[status];
  return (
    <span class={`live-badge ${status}`} role="status">
      <span class="dot" aria-hidden="true" /> {text}
    </span>
  );
}
