import { markup, SafeHtml } from '../html/html';

/**
 * Response headers of every viewer page: scripts, styles and API calls from this origin only, no
 * framing, no sniffing, no referrer; private and revalidated.
 */
export const VIEWER_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'private, no-cache',
};

/** A 401 to a script sending a wrong key: browsers sign in with the form instead. */
export const VIEWER_CHALLENGE = 'Basic realm="graph-history", charset="UTF-8"';

/** The HTML document of every viewer page: the built stylesheet, and the app when `app` is set. */
export const viewerDocument = (
  title: string,
  assets: string,
  body: SafeHtml,
  app = false,
): string =>
  markup`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${title} · Graph History</title>
<link rel="stylesheet" href="${assets}/viewer.css">${app ? markup`<script type="module" src="${assets}/viewer.js"></script>` : ''}</head>
<body>${body}</body></html>
`.html;

/** The page the front end renders into: the share at `/graphs/{id}`, the index at `/graphs`. */
export const appShell = (assets: string): string =>
  viewerDocument(
    'Shares',
    assets,
    markup`<div id="app"><p class="boot">Loading…</p></div><noscript><p class="boot">The viewer needs JavaScript. The same data is in the <a href="/docs">API</a>.</p></noscript>`,
    true,
  );
