import type { Notice } from '@graph-history/client';

/** How long after a stream the server refused (closed) it is opened again. */
const REOPEN_MS = 5_000;

/**
 * Calls `onNotice` with each new notice of the account (from now), from its notice stream
 * (Server-Sent Events, the session cookie authenticating it). EventSource resumes by itself with
 * Last-Event-ID; a stream the server closed is opened again after a while, after the last notice.
 */
export function followNotices(onNotice: (n: Notice) => void, signal: AbortSignal): void {
  let last: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let source: EventSource | null = null;
  const open = () => {
    if (signal.aborted) return;
    const query = last ? `?starting_after=${encodeURIComponent(last)}` : '';
    source = new EventSource(`/api/v1/notices/stream${query}`);
    source.onmessage = (m: MessageEvent<string>) => {
      const notice = JSON.parse(m.data) as Notice;
      last = notice.id;
      onNotice(notice);
    };
    source.onerror = () => {
      if (source?.readyState !== EventSource.CLOSED) return;
      timer = setTimeout(open, REOPEN_MS);
    };
  };
  signal.addEventListener('abort', () => {
    clearTimeout(timer);
    source?.close();
  });
  open();
}
