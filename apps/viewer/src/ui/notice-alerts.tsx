import { noticeSummary, type Notice } from '@graph-history/client';
import { useEffect, useState } from 'preact/hooks';
import { followNotices } from '../api/notice-stream';
import { notifying } from '../live/notify-preference';

/** Alerts kept on screen (newest first). */
const SHOWN = 5;

const TITLES: Record<Notice['type'], string> = {
  'node.input_required': 'Needs you',
  'node.failed': 'Failed',
  'node.wait_cycle': 'Deadlocked',
  'session.ended': 'Session ended',
  'graph.quarantined': 'Share stopped',
};

/** The notice's moment on this viewer's own origin (the link may name another base URL). */
function momentPath(n: Notice): string {
  const u = new URL(n.url, location.href);
  return u.pathname + u.search;
}

/**
 * An in-page alert for each new notice of any of the account's shares, linking to its moment,
 * and, while the header's "Notify me" is on, a browser notification too.
 */
export function NoticeAlerts() {
  const [notices, setNotices] = useState<Notice[]>([]);
  useEffect(() => {
    const stop = new AbortController();
    followNotices((n) => {
      setNotices((shown) => [n, ...shown.filter((s) => s.id !== n.id)].slice(0, SHOWN));
      if (notifying()) {
        const note = new Notification(`${TITLES[n.type]} · ${n.graph_id}`, {
          body: noticeSummary(n),
          tag: n.id,
        });
        note.onclick = () => {
          window.focus();
          location.assign(momentPath(n));
        };
      }
    }, stop.signal);
    return () => stop.abort();
  }, []);
  const dismiss = (id: string) => setNotices((shown) => shown.filter((s) => s.id !== id));
  return (
    <aside class="notice-alerts" aria-label="Notices" aria-live="polite">
      {notices.map((n) => (
        <div class={`notice-alert ${n.type.replace('.', '-')}`} key={n.id}>
          <div class="notice-head">
            <strong>{TITLES[n.type]}</strong> <span class="notice-graph">{n.graph_id}</span>
            <span class="notice-actions">
              <a href={momentPath(n)}>Open</a>
              <button
                type="button"
                onClick={() => dismiss(n.id)}
                aria-label={`Dismiss: ${noticeSummary(n)}`}
              >
                Dismiss
              </button>
            </span>
          </div>
          <p>{noticeSummary(n)}</p>
        </div>
      ))}
    </aside>
  );
}
