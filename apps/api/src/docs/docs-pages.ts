import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Marked } from 'marked';
import { pageCsp } from '@graph-history/http';
import { escapeHtml as escape } from '../html/html';
import { ERROR_CATALOG } from './error-catalog';

const REFERENCE = path.resolve(__dirname, '../../../../docs/api-reference.md');

/** GitHub-style heading anchors, so the reference's `#section` links work on /docs too. */
const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

const markdown = new Marked({
  renderer: {
    heading({ tokens, depth, text }) {
      return `<h${depth} id="${slug(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
code,pre{font-family:ui-monospace,monospace;background:#f4f4f5;border-radius:4px}code{padding:0 .2em}pre{padding:.8em;overflow:auto}
table{border-collapse:collapse;width:100%;margin:1em 0}th,td{border:1px solid #ddd;padding:.35em .5em;text-align:left;vertical-align:top}
section{border-top:1px solid #eee;padding-top:.5em}nav a{margin-right:1em}
`;

/** The Content-Security-Policy of the docs pages: their one inline stylesheet, by its hash. */
export const DOCS_CSP = pageCsp(STYLE);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head><body><nav><a href="/docs">API reference</a><a href="/docs/errors">Errors</a><a href="/api/v1/openapi.json">OpenAPI</a></nav>
${body}</body></html>`;

/** /docs: docs/api-reference.md rendered to HTML (read once at start). */
export function referencePage(): string {
  let source: string;
  try {
    source = readFileSync(REFERENCE, 'utf8');
  } catch {
    source =
      '# Graph History Read API\n\nThe reference file docs/api-reference.md is missing from this build; see /api/v1/openapi.json.';
  }
  return page('Graph History Read API', markdown.parse(source, { async: false }));
}

/** /docs/errors: one section per error code, anchored `#<code>` (the `doc_url` of every error). */
export function errorsPage(): string {
  const sections = ERROR_CATALOG.map(
    (e) => `<section id="${e.code}"><h2><code>${e.code}</code></h2>
<p><strong>HTTP ${e.status}</strong> · type <code>${e.type}</code> · param: ${escape(e.param)}</p>
<p>${escape(e.when)}</p><p><em>What to do:</em> ${escape(e.fix)}</p></section>`,
  ).join('\n');
  const intro = `<h1>Errors</h1><p>Every error has the envelope <code>{"error": {type, code, message, param, doc_url}}</code>; <code>doc_url</code> points to the section of its code below. Every response carries <code>Request-Id</code>.</p>`;
  return page('Graph History API errors', intro + sections);
}
