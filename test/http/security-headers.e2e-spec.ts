import { createHash } from 'node:crypto';
import { validRun } from '../ingestor/support/watch-events';
import { rawRequest } from '../support/raw-http';
import { AppName, RunningApp, startApp } from './support/either-app';

const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The headers a reviewer expects on every answer; `page` answers get a page policy. */
function expectSecurityHeaders(a: Answer, kind: 'page' | 'data') {
  expect({
    nosniff: a.headers['x-content-type-options'],
    frame: a.headers['x-frame-options'],
    referrer: a.headers['referrer-policy'],
    opener: a.headers['cross-origin-opener-policy'],
    resource: a.headers['cross-origin-resource-policy'],
  }).toEqual({
    nosniff: 'nosniff',
    frame: 'DENY',
    referrer: 'no-referrer',
    opener: 'same-origin',
    resource: 'same-origin',
  });
  const csp = a.headers['content-security-policy'] ?? '';
  if (kind === 'data') return expect(csp).toBe(DATA_CSP);
  expect(a.headers['content-type']).toMatch(/^text\/html/);
  expect(csp).toMatch(/^default-src '(self|none)'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).not.toMatch(/unsafe-(inline|eval)/);
  // the page works under it: no inline script or handler, every inline stylesheet hashed
  expect(a.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  expect(a.body).not.toMatch(/\son[a-z]+=|\sstyle=/i);
  for (const [, css] of a.body.matchAll(/<style>([\s\S]*?)<\/style>/g))
    expect(csp).toContain(`'sha256-${createHash('sha256').update(css!).digest('base64')}'`);
}

async function get(
  app: RunningApp,
  method: string,
  path: string,
  init: RequestInit = {},
): Promise<Answer> {
  const r = await fetch(`${app.baseUrl}${path}`, { method, redirect: 'manual', ...init });
  return { status: r.status, headers: Object.fromEntries(r.headers), body: await r.text() };
}

/** POSTs `body` to the ingest events endpoint with the app's key. */
const ingest = (a: RunningApp, body: string, type = 'application/json') =>
  get(a, 'POST', '/ingest/v1/graphs/headers/events', {
    headers: { authorization: a.auth, 'content-type': type },
    body,
  });

const raw = async (app: RunningApp, request: string): Promise<Answer> =>
  rawRequest(app.baseUrl, request);

/** Every kind of answer of each app: pages, JSON, errors of every origin, 404s. */
const CASES: Record<
  AppName,
  [string, number, 'page' | 'data', (a: RunningApp) => Promise<Answer>][]
> = {
  api: [
    ['the home page', 200, 'page', (a) => get(a, 'GET', '/')],
    ['the reference', 200, 'page', (a) => get(a, 'GET', '/docs')],
    ['the errors page', 200, 'page', (a) => get(a, 'GET', '/docs/errors')],
    ['the sign-in page', 200, 'page', (a) => get(a, 'GET', '/sign-in')],
    [
      'the viewer index',
      200,
      'page',
      (a) => get(a, 'GET', '/graphs', { headers: { authorization: a.auth } }),
    ],
    [
      'a viewer 404 page',
      404,
      'page',
      (a) => get(a, 'GET', '/graphs/gph_missing', { headers: { authorization: a.auth } }),
    ],
    [
      'a JSON list',
      200,
      'data',
      (a) => get(a, 'GET', '/api/v1/graphs', { headers: { authorization: a.auth } }),
    ],
    ['the OpenAPI document', 200, 'data', (a) => get(a, 'GET', '/api/v1/openapi.json')],
    ['a 401', 401, 'data', (a) => get(a, 'GET', '/api/v1/graphs')],
    ['a 404 of an unknown URL', 404, 'data', (a) => get(a, 'GET', '/no/such/path')],
    ['a 405', 405, 'data', (a) => get(a, 'DELETE', '/api/v1/graphs')],
    ['a router 400', 400, 'data', (a) => get(a, 'GET', '/api/v1/graphs/gph_%ZZ')],
    ['a health check', 200, 'data', (a) => get(a, 'GET', '/healthz')],
    ['the favicon', 200, 'data', (a) => get(a, 'GET', '/favicon.ico')],
    [
      'an HTTP parser 400',
      400,
      'data',
      (a) => raw(a, 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n'),
    ],
  ],
  ingestor: [
    ['a 202', 202, 'data', (a) => ingest(a, JSON.stringify({ events: validRun('h', 2) }))],
    ['a 400', 400, 'data', (a) => ingest(a, '{"events": 1}')],
    ['a 401', 401, 'data', (a) => get(a, 'POST', '/ingest/v1/graphs/headers/events')],
    ['a 404 of an unknown URL', 404, 'data', (a) => get(a, 'GET', '/no/such/path')],
    ['a 405', 405, 'data', (a) => get(a, 'GET', '/ingest/v1/graphs/headers/events')],
    ['a 415', 415, 'data', (a) => ingest(a, 'x', 'text/plain')],
    ['a router 400', 400, 'data', (a) => get(a, 'POST', '/ingest/v1/graphs/k%ZZ/events')],
    ['a health check', 200, 'data', (a) => get(a, 'GET', '/healthz')],
    [
      'an HTTP parser 400',
      400,
      'data',
      (a) => raw(a, 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n'),
    ],
  ],
};

describe.each(['api', 'ingestor'] as const)('%s: security headers', (name) => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp(name, {});
  });
  afterAll(() => app.stop());

  it.each(CASES[name])('on %s (%d)', async (_, status, kind, request) => {
    const a = await request(app);
    expect(a.status).toBe(status);
    expect(a.headers['request-id']).toMatch(/^req_/);
    expectSecurityHeaders(a, kind);
  });
});
