import { GraphHistory, type FetchLike } from '@graph-history/client';

/**
 * Marks API calls as the viewer's own: with it (and only with it, or a same-origin link) the API
 * accepts the session cookie. A cross-site page cannot add a custom header without a preflight
 * the API never grants.
 */
const VIEWER_HEADER = 'Graph-History-Viewer';

/** Told after every request whether the service answered (a 5xx or no answer: not reached). */
export type ConnectionListener = (reached: boolean) => void;

/**
 * The typed client, authenticated by the browser's session cookie instead of a key: its fetch
 * drops the Authorization header (the page never holds a key) and marks the call as the viewer's.
 * A lost session (401) goes back to the sign-in page.
 */
export function sessionClient(onConnection: ConnectionListener): GraphHistory {
  const sessionFetch: FetchLike = async (url, init) => {
    const headers: Record<string, string> = { [VIEWER_HEADER]: '1' };
    for (const [k, v] of Object.entries(init.headers))
      if (k.toLowerCase() !== 'authorization') headers[k] = v;
    try {
      const res = await fetch(url, { ...init, headers, credentials: 'same-origin' });
      onConnection(res.status < 500);
      if (res.status === 401)
        location.assign(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`);
      return res;
    } catch (err) {
      if (!init.signal.aborted) onConnection(false);
      throw err;
    }
  };
  // the key is never used: sessionFetch removes the header the client puts it in
  return new GraphHistory({ apiKey: 'session', baseUrl: location.origin, fetch: sessionFetch });
}
