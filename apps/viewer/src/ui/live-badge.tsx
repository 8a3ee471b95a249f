import type { LiveStatus } from '../live/live-feed';
import { clock } from '../model/format';

/** Whether the page follows the share live, is reconnecting, or shows a past moment. */
export function LiveBadge({
  status,
  pastAt,
  onLive,
}: {
  status: LiveStatus;
  pastAt: number | null;
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
  const text = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…' }[status];
  return (
    <span class={`live-badge ${status}`} role="status">
      <span class="dot" aria-hidden="true" /> {text}
    </span>
  );
}
