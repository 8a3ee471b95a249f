import { pageCsp } from '@graph-history/http';
import { markup, SafeHtml } from '../html/html';

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
code,pre{font-family:ui-monospace,monospace;background:#f4f4f5;border-radius:4px}code{padding:0 .2em}pre{padding:.8em;overflow:auto}
li{margin:.3em 0}
`;

/** The Content-Security-Policy of the home page: its one inline stylesheet, by its hash. */
export const HOME_CSP = pageCsp(STYLE);

/** `GET /`: what runs here and where to go next, for a person who opens the address in a browser. */
export function homePage(baseUrl: string): string {
  const graphs = `${baseUrl}/api/v1/graphs`;
  return markup`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>graph-history</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.ico">
<style>${new SafeHtml(STYLE)}</style></head><body>
<h1>graph-history</h1>
<p>This is the <strong>graph-history read API</strong>: live shares of AI-agent activity as graphs,
readable as of any retained event. It is running.</p>
<ul>
<li><a href="/docs">API reference</a> and <a href="/docs/errors">error codes</a></li>
<li><a href="/api/v1/openapi.json">OpenAPI document</a> (<code>/api/v1/openapi.json</code>)</li>
<li>Your account's shares as JSON: <a href="/api/v1/graphs"><code>/api/v1/graphs</code></a>, with your secret key:
<pre>curl -H "Authorization: Bearer sk_live_…" ${graphs}</pre></li>
<li>Watch them live: <a href="/graphs">your shares</a>, each at <code>/graphs/{graph_id}</code> (its
<code>url</code>); sign in once with a key of the account.</li>
</ul>
</body></html>`.html;
}
