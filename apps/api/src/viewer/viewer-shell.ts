import { markup, SafeHtml } from '../html/html';

/**
 * Response headers of every viewer page: no script may run (all data is escaped text anyway), no
 * framing, no sniffing; private to the key that opened it, revalidated with its ETag.
 */
export const VIEWER_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'private, no-cache',
};

/** A browser can only answer a Basic challenge: the key is typed as the user name. */
export const VIEWER_CHALLENGE = 'Basic realm="graph-history", charset="UTF-8"';

const STYLE = new SafeHtml(`
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1a1a1a;background:#fff}
h1{font-size:1.4rem;margin:0 0 .2rem}h2{font-size:1.05rem;margin:1.4rem 0 .4rem}
.sub,.muted{color:#666}code{font-family:ui-monospace,monospace;font-size:.9em}
nav a,form{margin-right:1rem}form{display:inline}
table{border-collapse:collapse}th,td{border-bottom:1px solid #e5e5e5;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{font-weight:600;background:#fafafa}.num{text-align:right;font-variant-numeric:tabular-nums}
.facts td:first-child{color:#666}.tree td.name{white-space:nowrap}
.tree .kind{display:inline-block;min-width:3.8em;color:#666;font-size:.85em}
.flag{display:inline-block;border-radius:3px;padding:0 .3em;margin-right:.2em;font-size:.85em}
.stale{background:#fff3cd}.blocked{background:#f8d7da}.attention{background:#cfe2ff}
.s-working{color:#0a6e31}.s-input_required{color:#9a6700}.s-failed{color:#b42318}.s-canceled,.s-completed{color:#666}
.headline{max-width:40rem}
`);

/** The HTML document around a viewer page or error page. */
export const viewerDocument = (title: string, body: SafeHtml): string =>
  markup`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${title} · Graph History</title>
<style>${STYLE}</style></head>
<body>${body}</body></html>
`.html;
