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
.toc{border:1px solid #ddd;border-radius:6px;padding:.5em 1em;margin:1em 0}.toc ul{margin:.2em 0;padding-left:1.2em}.toc a{margin:0}
`;

/** The Content-Security-Policy of the docs pages: their one inline stylesheet, by its hash. */
export const DOCS_CSP = pageCsp(STYLE);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head><body><nav><a href="/docs">API reference</a><a href="/docs/errors">Errors</a><a href="/api/v1/openapi.json">OpenAPI</a></nav>
${body}</body></html>`;

/** Base URLs the reference's examples are written with, replaced by the server's own. */
const EXAMPLE_BASE_URLS = /https?:\/\/(?:127\.0\.0\.1:3000|api\.example\.com)/g;

/** A table of contents of the reference's sections (##) and their parts (###). */
function tableOfContents(source: string): string {
  const items: string[] = [];
  let open = false;
  for (const t of markdown.lexer(source)) {
    if (t.type !== 'heading' || (t.depth !== 2 && t.depth !== 3)) continue;
    const link = `<a href="#${slug(t.text)}">${markdown.parseInline(t.text, { async: false })}</a>`;
    if (t.depth === 2) {
      items.push(`${open ? '</ul></li>' : ''}<li>${link}`);
      open = false;
    } else {
      items.push(`${open ? '' : '<ul>'}<li>${link}</li>`);
      open = true;
    }
  }
  if (items.length) items.push(open ? '</ul></li>' : '</li>');
  return `<nav class="toc" aria-label="Contents"><strong>Contents</strong><ul>${items.join('')}</ul></nav>`;
}

/**
 * /docs: docs/api-reference.md rendered to HTML (read once at start), with a table of contents
 * after its introduction and its examples on this server's base URL.
 */
export function referencePage(baseUrl: string): string {
  let source: string;
  try {
    source = readFileSync(REFERENCE, 'utf8');
  } catch {
    source =
      '# Graph History Read API\n\nThe reference file docs/api-reference.md is missing from this build; see /api/v1/openapi.json.';
  }
  source = source.replace(EXAMPLE_BASE_URLS, baseUrl);
  const html = markdown.parse(source, { async: false });
  const firstSection = html.indexOf('<h2');
  const body =
    firstSection < 0
      ? html
      : html.slice(0, firstSection) + tableOfContents(source) + html.slice(firstSection);
  return page('Graph History Read API', body);
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
