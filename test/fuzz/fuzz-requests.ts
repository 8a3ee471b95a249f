import fc from 'fast-check';
import { NODE_EXPANSIONS } from '../../apps/api/src/expand/expand-paths';

/** What the fuzzer knows about the data it targets: real ids and keys, to reach deep code paths. */
export interface FuzzContext {
  /** Secret key of the account owning the graph, a restricted key, and a key of another account. */
  keys: { secret: string; restricted: string; other: string };
  graphId: string;
  graphKey: string;
  nodeIds: string[];
  eventIds: string[];
}

/** One HTTP/1.1 request as raw parts, so it may be malformed in ways clients normally refuse. */
export interface FuzzRequest {
  method: string;
  /** Path and query as raw bytes (may hold bytes no encoder would send). */
  target: Buffer;
  headers: [string, string][];
  body?: Buffer;
}

/** Every real expansion, plus deep, list-only and malformed paths. */
const EXPAND_PATHS = [
  ...NODE_EXPANSIONS,
  'children.tasks',
  'children.children.children.children.children',
  'data.node',
  'data',
  'node',
  'data.node.parent',
  'nope',
  '',
  'children..tasks',
];

/** Values a hostile client might put anywhere: edge numbers, ids, encodings, huge and odd strings. */
const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1',
    '1000',
    '1001',
    '99999999999999999',
    '1e3',
    '0x10',
    'NaN',
    'null',
    'true',
    '[]',
    '{}',
    '%',
    '%ZZ',
    '%00',
    '%C0%AF',
    '%FF%FE',
    '..',
    '../..',
    '\u0000',
    'évt',
    '😀',
    'gph_',
    'node_',
    'evt_',
    'evt_0',
    'node_-1',
    'gph_%2F',
    'a'.repeat(2_000),
    '9'.repeat(400),
    'sk_live_' + 'x'.repeat(32),
    'asc',
    'desc',
    'tree',
    'agent',
    'session',
    'working',
    'completed',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: -2, max: 2_000_000_000_000_000 }).map(String),
);

/** A header value without the characters it cannot carry (CR, LF, NUL). */
const headerSafe = (s: string): string =>
  s.replaceAll('\r', '').replaceAll('\n', '').replaceAll('\u0000', '');

const pick = <T>(values: T[]) => fc.constantFrom(...values);

/** A value for a parameter: mostly plausible ones from the context, else hostile. */
const valueFor = (ctx: FuzzContext) =>
  fc.oneof(
    { weight: 3, arbitrary: hostileString },
    { weight: 2, arbitrary: pick([...ctx.nodeIds, ...ctx.eventIds, ctx.graphId]) },
    { weight: 1, arbitrary: pick(EXPAND_PATHS) },
  );

/** Percent-encodes like a browser, sometimes; sometimes leaves raw bytes or breaks the encoding. */
const encode = (s: string, how: number): string => {
  if (how === 0) return encodeURIComponent(s);
  if (how === 1) return s.replace(/[&#?\s]/g, (c) => encodeURIComponent(c));
  return s; // raw: whatever bytes it holds
};

const API_ROUTES = [
  '/api/v1/graphs',
  '/api/v1/graphs/{graph}',
  '/api/v1/graphs/{graph}/nodes',
  '/api/v1/graphs/{graph}/nodes/{node}',
  '/api/v1/graphs/{graph}/events',
  '/api/v1/openapi.json',
  '/docs',
  '/docs/errors',
  '/graphs/{graph}',
  '/healthz',
  '/readyz',
  '/metrics',
  '/api/v1/nope',
  '/api/v2/graphs',
  '/',
];

const API_PARAMS = [
  'limit',
  'starting_after',
  'ending_before',
  'as_of',
  'parent_id',
  'ancestor_id',
  'max_depth',
  'order',
  'kind',
  'state',
  'expand[]',
  'expand',
  'descendants_max_depth',
  'last_event[gt]',
  'last_event[gte]',
  'last_event[lt]',
  'last_event[lte]',
  'last_event',
  'api_key',
  'unknown',
  'expand[0]',
  'limit[]',
];

const pathSegment = (ctx: FuzzContext, real: string[]) =>
  fc
    .oneof({ weight: 3, arbitrary: pick(real) }, { weight: 2, arbitrary: hostileString })
    .chain((v) => fc.nat(2).map((how) => encode(v, how)));

const query = (ctx: FuzzContext, names: string[]) =>
  fc
    .array(
      fc.tuple(
        fc.oneof({ weight: 4, arbitrary: pick(names) }, { weight: 1, arbitrary: hostileString }),
        valueFor(ctx),
        fc.nat(2),
      ),
      { maxLength: 6 },
    )
    .map((pairs) =>
      pairs.length === 0
        ? ''
        : '?' +
          pairs
            .map(([n, v, how]) => `${encode(n, how === 0 ? 1 : how)}=${encode(v, how)}`)
            .join('&'),
    );

const authorization = (ctx: FuzzContext) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${ctx.keys.secret}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${ctx.keys.restricted}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${ctx.keys.other}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(pick([ctx.keys.secret, '', 'sk_live_short']), pick(['', 'pw', ':']))
        .map(([u, p]) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`),
    },
    { weight: 1, arbitrary: hostileString.map((s) => `Bearer ${s}`) },
    { weight: 1, arbitrary: hostileString },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

/** Headers that matter to the apps, with odd values; header values cannot hold CR/LF or NUL. */
const headerValue = hostileString.map(headerSafe);
const extraHeaders = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constant('If-None-Match'),
      fc.oneof(headerValue, fc.constant('*'), fc.constant('W/"x"')),
    ),
    fc.tuple(
      fc.constant('X-Forwarded-For'),
      fc.oneof(headerValue, fc.constant('1.2.3.4, 10.0.0.1')),
    ),
    fc.tuple(fc.constant('Accept'), fc.oneof(headerValue, fc.constant('text/html'))),
    fc.tuple(fc.constant('Accept-Encoding'), headerValue),
    fc.tuple(fc.constant('Content-Type'), fc.oneof(headerValue, fc.constant('application/json'))),
    fc.tuple(fc.constant('X-Junk'), headerValue),
  ),
  { maxLength: 3 },
);

const headersWith = (ctx: FuzzContext) =>
  fc
    .tuple(authorization(ctx), extraHeaders)
    .map(([auth, extra]) => [
      ...(auth === undefined ? [] : ([['Authorization', headerSafe(auth)]] as [string, string][])),
      ...extra,
    ]);

/** Any request to the read API: every route, every parameter, any method, odd encodings. */
export function apiRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.oneof(
        { weight: 8, arbitrary: fc.constant('GET') },
        { weight: 1, arbitrary: pick(['HEAD', 'POST', 'DELETE', 'OPTIONS', 'PATCH']) },
      ),
      pick(API_ROUTES),
      pathSegment(ctx, [ctx.graphId]),
      pathSegment(ctx, ctx.nodeIds),
      query(ctx, API_PARAMS),
      headersWith(ctx),
    )
    .map(([method, route, graph, node, q, headers]) => ({
      method,
      target: Buffer.from(route.replace('{graph}', graph).replace('{node}', node) + q, 'utf8'),
      headers,
    }));
}

/** A WatchEvent valid for the context's graph, which mutations then break in every field. */
const baseEvent = (i: number) => ({
  key: `fz-${i}-${Math.random().toString(36).slice(2)}`,
  type: 'activity',
  created: Date.now() - 60_000,
  node: 'fuzz-s',
  source: { provider: 'claude-code', provider_version: '2.0.14', adapter: 'fuzz/1' },
  payload: { summary: 'fuzzing' },
});

const jsonValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(8_640_000_000_000_000),
  fc.constant(Date.now() + 86_400_000),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

const EVENT_FIELDS = [
  'key',
  'type',
  'created',
  'node',
  'source',
  'payload',
  'extra',
  'payload.parent',
  'payload.state',
  'payload.on',
  'payload.to',
  'source.provider',
];

const mutatedEvent = fc
  .tuple(
    fc.nat(1000),
    fc.array(fc.tuple(pick(EVENT_FIELDS), jsonValue, fc.boolean()), { maxLength: 3 }),
  )
  .map(([i, mutations]) => {
    const e: Record<string, unknown> = baseEvent(i);
    for (const [field, value, remove] of mutations) {
      const [top, sub] = field.split('.') as [string, string | undefined];
      const target = sub ? ((e[top] ??= {}) as Record<string, unknown>) : e;
      if (typeof target !== 'object' || target === null) continue;
      const name = sub ?? top;
      if (remove) delete target[name];
      else target[name] = value;
    }
    return e;
  });

const ingestBody = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .array(mutatedEvent, { minLength: 1, maxLength: 5 })
      .map((events) => JSON.stringify({ events })),
  },
  { weight: 1, arbitrary: jsonValue.map((v) => JSON.stringify(v)) },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(hostileString, jsonValue, { maxKeys: 3 })
      .map((v) => JSON.stringify(v)),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: pick([
      '',
      '{',
      '{"events":',
      '{"events":[]}',
      'events=1&a=b',
      '<x/>',
      '{"__proto__":{"x":1},"events":[]}',
      '{"constructor":{"prototype":{}}}',
    ]),
  },
);

/** Any request to the ingestor: every method, odd graph keys, bodies of every shape and type. */
export function ingestRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.oneof(
        { weight: 8, arbitrary: fc.constant('POST') },
        { weight: 1, arbitrary: pick(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) },
      ),
      pick([
        '/ingest/v1/graphs/{key}/events',
        '/ingest/v1/graphs/{key}',
        '/ingest/v1/nope',
        '/healthz',
        '/readyz',
        '/metrics',
      ]),
      pathSegment(ctx, [ctx.graphKey, 'fuzz-new']),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: query(ctx, ['api_key', 'x']) },
      ),
      ingestBody,
      fc.oneof(
        { weight: 6, arbitrary: fc.constant('application/json') },
        {
          weight: 2,
          arbitrary: pick([
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=latin1',
            'application/merge-patch+json',
            '',
          ]),
        },
        { weight: 1, arbitrary: headerValue },
      ),
      headersWith(ctx),
      fc.oneof(
        { weight: 9, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: -5, max: 50 }) },
      ),
    )
    .map(([method, route, key, q, body, type, headers, lengthSkew]) => {
      const bytes = Buffer.from(body, 'utf8');
      return {
        method,
        target: Buffer.from(route.replace('{key}', key) + q, 'utf8'),
        headers: [
          ...headers.filter(([n]) => n !== 'Content-Type'),
          ...(type ? ([['Content-Type', type]] as [string, string][]) : []),
          ['Content-Length', String(Math.max(0, bytes.length + lengthSkew))],
        ],
        body: bytes,
      };
    });
}
