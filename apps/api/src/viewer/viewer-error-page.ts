import type { ErrorBody } from '@graph-history/http';
import { markup } from '../html/html';
import { viewerDocument } from './viewer-shell';

/** An error of the viewer as a page: the same fields as the API's error envelope. */
export function viewerErrorPage(
  assets: string,
  status: number,
  error: ErrorBody,
  requestId: string,
): string {
  const title = `${status} ${error.code}`;
  const extras = Object.entries(error).filter(
    ([k]) => !['type', 'code', 'message', 'param', 'doc_url'].includes(k),
  );
  return viewerDocument(
    title,
    assets,
    markup`<main class="error-page"><h1>${title}</h1><p>${error.message}</p>
<table class="facts"><tr><td>type</td><td><code>${error.type}</code></td></tr>
<tr><td>code</td><td><a href="${error.doc_url}"><code>${error.code}</code></a></td></tr>
<tr><td>param</td><td><code>${error.param ?? 'null'}</code></td></tr>
${extras.map(([k, v]) => markup`<tr><td>${k}</td><td><code>${String(v)}</code></td></tr>`)}
<tr><td>request</td><td><code>${requestId}</code></td></tr></table>
<p><a href="/graphs">Your shares</a></p></main>`,
  );
}
