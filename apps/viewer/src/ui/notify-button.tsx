import { useState } from 'preact/hooks';
import { canNotify, notifying, setNotifying } from '../live/notify-preference';

/**
 * The header's "Notify me" toggle: browser notifications of the account's new notices. The first
 * press asks the browser's permission; then it turns them on and off (aria-pressed). Blocked in
 * the browser's settings, it says so and does nothing.
 */
export function NotifyButton() {
  const [on, setOn] = useState(notifying);
  const [permission, setPermission] = useState(canNotify() ? Notification.permission : 'denied');
  if (!canNotify()) return null;
  const blocked = permission === 'denied';
  const press = async () => {
    if (blocked) return;
    if (permission !== 'granted') {
      const answer = await Notification.requestPermission();
      setPermission(answer);
      setNotifying(answer === 'granted');
    } else {
      setNotifying(!on);
    }
    setOn(notifying());
  };
  return (
    <button
      type="button"
      class="notify"
      aria-pressed={on ? 'true' : 'false'}
      aria-disabled={blocked ? 'true' : undefined}
      aria-describedby={blocked ? 'notify-blocked' : undefined}
      title={
        blocked
          ? 'Notifications are blocked in this browser’s settings for this site'
          : on
            ? 'Browser notifications of new notices are on'
            : 'Show a browser notification for each new notice of your shares'
      }
      onClick={() => void press()}
    >
      <span class="notify-mark" aria-hidden="true">
        {on ? '●' : '○'}
      </span>{' '}
      Notify me
      {blocked && (
        <span id="notify-blocked" class="notify-blocked">
          {' '}
          (blocked)
        </span>
      )}
    </button>
  );
}
