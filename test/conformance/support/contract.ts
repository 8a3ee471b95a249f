import type { HttpResponse } from './http';

/* Shapes and envelopes of read-api.md sections 2 and 7, checked field by field. */

export const NODE_FIELDS = [
  'id',
  'object',
  'as_of_event_id',
  'graph_id',
  'provider_ref',
  'provider',
  'kind',
  'parent_id',
  'root_id',
  'session_id',
  'requested_by_id',
  'depth',
  'state',
  'stale',
  'attention',
  'title',
  'summary',
  'headline',
  'purpose',
  'agent_type',
  'background',
  'link_method',
  'spawn_call_id',
  'cwd',
  'created',
  'ended',
  'last_event',
  'child_count',
  'descendant_count',
  'background_agent_count',
  'task_counts',
  'blocked',
  // additive within v1 (issue 31)
  'usage',
  'descendant_usage',
].sort();

export const GRAPH_FIELDS = [
  'id',
  'object',
  'as_of_event_id',
  'source',
  'url',
  'created',
  'last_event',
  'retention',
  'counts',
  // additive within v1 (issue 31)
  'usage',
].sort();

export const EVENT_FIELDS = [
  'id',
  'object',
  'type',
  'created',
  'graph_id',
  'node_id',
  'source',
  'payload',
  'changes',
].sort();

export const STATES = ['working', 'input_required', 'idle', 'completed', 'failed', 'canceled'];

const isInt = (v: unknown): boolean => Number.isInteger(v);
const strOrNull = (v: unknown): boolean => v === null || typeof v === 'string';

function expectType(what: string, ok: boolean, value: unknown): void {
  if (!ok) throw new Error(`${what} has the wrong type: ${JSON.stringify(value)}`);
}

const TOKEN_FIELDS = [
  'cache_creation_tokens',
  'cache_read_tokens',
  'input_tokens',
  'output_tokens',
];

/** Token counts and an estimated cost (a number, or null for a model without a price). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function expectCountsShape(what: string, c: any, byModel: boolean): void {
  const fields = [...TOKEN_FIELDS, 'cost_usd', ...(byModel ? ['by_model'] : [])];
  expect(Object.keys(c).sort()).toEqual(fields.sort());
  for (const f of TOKEN_FIELDS) expectType(`${what}.${f}`, isInt(c[f]) && c[f] >= 0, c[f]);
  expectType(`${what}.cost_usd`, c.cost_usd === null || typeof c.cost_usd === 'number', c.cost_usd);
}

/** A Node's `usage`/`descendant_usage`, and each of its models. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectUsageShape(what: string, u: any): void {
  expectCountsShape(what, u, true);
  for (const [model, c] of Object.entries(u.by_model))
    expectCountsShape(`${what}.by_model.${model}`, c, false);
}

export function expectListShape(list: Record<string, unknown>, asOfNull = false): void {
  expect(Object.keys(list).sort()).toEqual(['as_of_event_id', 'data', 'has_more', 'object', 'url']);
  expect(list.object).toBe('list');
  expectType('list.url', typeof list.url === 'string', list.url);
  expectType('list.has_more', typeof list.has_more === 'boolean', list.has_more);
  expectType('list.data', Array.isArray(list.data), list.data);
  if (asOfNull) expect(list.as_of_event_id).toBeNull();
  else expect(String(list.as_of_event_id)).toMatch(/^evt_/);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectGraphShape(g: any): void {
  expect(Object.keys(g).sort()).toEqual(GRAPH_FIELDS);
  expect(g.id).toMatch(/^gph_[A-Za-z0-9_-]{1,64}$/);
  expect(g.object).toBe('graph');
  expect(g.as_of_event_id).toMatch(/^evt_/);
  expect(g.source).toBe('watch');
  expectType('graph.url', typeof g.url === 'string', g.url);
  for (const f of ['created', 'last_event']) expectType(`graph.${f}`, isInt(g[f]), g[f]);
  const r = g.retention;
  expect(Object.keys(r).sort()).toEqual([
    'event_count',
    'first_event_created',
    'first_event_id',
    'last_event_created',
    'last_event_id',
  ]);
  for (const f of ['event_count', 'first_event_created', 'last_event_created'])
    expectType(`retention.${f}`, isInt(r[f]), r[f]);
  for (const f of ['first_event_id', 'last_event_id']) expect(r[f]).toMatch(/^evt_/);
  const c = g.counts;
  expect(Object.keys(c).sort()).toEqual([
    'agents',
    'blocked',
    'by_state',
    'nodes',
    'sessions',
    'stale',
  ]);
  for (const f of ['agents', 'blocked', 'nodes', 'sessions', 'stale'])
    expectType(`counts.${f}`, isInt(c[f]), c[f]);
  expect(Object.keys(c.by_state).sort()).toEqual([...STATES].sort());
  for (const s of STATES) expectType(`counts.by_state.${s}`, isInt(c.by_state[s]), c.by_state[s]);
  expectCountsShape('graph.usage', g.usage, false);
}

/** A Node with no expansion: exactly the fields of section 2, each of its type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectNodeShape(n: any): void {
  expect(Object.keys(n).sort()).toEqual(NODE_FIELDS);
  expect(n.id).toMatch(/^node_/);
  expect(n.object).toBe('node');
  expect(n.as_of_event_id).toMatch(/^evt_/);
  expect(n.graph_id).toMatch(/^gph_/);
  for (const f of ['provider_ref', 'provider'])
    expectType(`node.${f}`, typeof n[f] === 'string', n[f]);
  expect(['session', 'agent']).toContain(n.kind);
  expect(n.root_id).toMatch(/^node_/);
  expect(n.session_id).toMatch(/^node_/);
  for (const f of ['parent_id', 'requested_by_id'])
    expectType(`node.${f}`, n[f] === null || /^node_/.test(n[f]), n[f]);
  expect(STATES).toContain(n.state);
  expectType('node.stale', typeof n.stale === 'boolean', n.stale);
  for (const f of [
    'title',
    'summary',
    'headline',
    'purpose',
    'agent_type',
    'spawn_call_id',
    'cwd',
  ]) {
    expectType(`node.${f}`, strOrNull(n[f]), n[f]);
  }
  expectType(
    'node.background',
    n.background === null || typeof n.background === 'boolean',
    n.background,
  );
  for (const f of [
    'depth',
    'created',
    'last_event',
    'child_count',
    'descendant_count',
    'background_agent_count',
  ]) {
    expectType(`node.${f}`, isInt(n[f]), n[f]);
  }
  expectType('node.ended', n.ended === null || isInt(n.ended), n.ended);
  expect(Object.keys(n.task_counts).sort()).toEqual([
    'completed',
    'in_progress',
    'open',
    'pending',
    'total',
  ]);
  for (const v of Object.values(n.task_counts)) expectType('task_counts', isInt(v), v);
  if (n.blocked !== null) {
    expect(Object.keys(n.blocked).sort()).toEqual([
      'cycle',
      'node_count',
      'on_ids',
      'open_tasks',
      'starting',
    ]);
    for (const id of n.blocked.on_ids) expect(id).toMatch(/^node_/);
    for (const f of ['starting', 'node_count', 'open_tasks'])
      expectType(`blocked.${f}`, isInt(n.blocked[f]), n.blocked[f]);
    expectType('blocked.cycle', typeof n.blocked.cycle === 'boolean', n.blocked.cycle);
  }
  if (n.attention !== null) {
    expect(Object.keys(n.attention).sort()).toEqual(['message', 'reason', 'since']);
    expect(['permission', 'question', 'error']).toContain(n.attention.reason);
    expectType('attention.message', strOrNull(n.attention.message), n.attention.message);
    expectType('attention.since', isInt(n.attention.since), n.attention.since);
  }
  for (const f of ['usage', 'descendant_usage'])
    if (n[f] !== null) expectUsageShape(`node.${f}`, n[f]);
  if (n.descendant_usage === null) expect(n.usage).toBeNull();
  if (n.kind === 'session') {
    for (const f of ['requested_by_id', 'agent_type', 'background', 'spawn_call_id', 'link_method'])
      expect(n[f]).toBeNull();
  } else {
    expect(['spawn_call_id', 'explicit', 'inferred']).toContain(n.link_method);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectEventShape(e: any): void {
  expect(Object.keys(e).sort()).toEqual(EVENT_FIELDS);
  expect(e.id).toMatch(/^evt_/);
  expect(e.object).toBe('event');
  for (const f of ['type']) expectType(`event.${f}`, typeof e[f] === 'string', e[f]);
  expectType('event.created', isInt(e.created), e.created);
  expect(e.graph_id).toMatch(/^gph_/);
  expect(e.node_id).toMatch(/^node_/);
  expect(Object.keys(e.source).sort()).toEqual(['adapter', 'provider', 'provider_version']);
  for (const v of Object.values(e.source)) expectType('event.source', typeof v === 'string', v);
  expectType(
    'event.payload',
    typeof e.payload === 'object' && e.payload !== null && !Array.isArray(e.payload),
    e.payload,
  );
  expectType('event.changes', Array.isArray(e.changes), e.changes);
  for (const c of e.changes) {
    expect(Object.keys(c).sort()).toEqual(['created', 'fields', 'node_id']);
    expect(c.node_id).toMatch(/^node_/);
    expectType('change.created', typeof c.created === 'boolean', c.created);
    for (const [name, ft] of Object.entries(c.fields as Record<string, unknown>)) {
      expectType(`change.fields.${name}`, typeof ft === 'object' && ft !== null, ft);
      expect(Object.keys(ft as object).sort()).toEqual(['from', 'to']);
    }
  }
}

export interface ExpectedError {
  status: number;
  type: string;
  code: string;
  param?: string | null;
}

/**
 * The error envelope of section 7: `{error: {type, code, message, param, doc_url, …extra}}`, with
 * decisions.md's `Request-Id: req_…` and `doc_url` → `…/docs/errors#<code>`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectError(res: HttpResponse, expected: ExpectedError): any {
  const detail = `${res.status} ${res.text}`;
  if (res.status !== expected.status || res.body?.error?.code !== expected.code) {
    throw new Error(`expected ${expected.status} ${expected.code}, got ${detail}`);
  }
  expect(Object.keys(res.body)).toEqual(['error']);
  const e = res.body.error;
  expect(e.type).toBe(expected.type);
  expect(typeof e.message).toBe('string');
  expect(e.message.length).toBeGreaterThan(0);
  expect(typeof e.doc_url).toBe('string');
  expect(e.doc_url).toMatch(new RegExp(`/docs/errors#${expected.code}$`));
  expect(e).toHaveProperty('param');
  if (expected.param !== undefined) expect(e.param).toBe(expected.param);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  return e;
}

export function expectRequestId(res: HttpResponse): string {
  const id = res.headers['request-id'];
  expect(typeof id).toBe('string');
  expect(id).toMatch(/^req_[A-Za-z0-9]+$/);
  return id as string;
}

/** A read API error: the envelope plus the `Request-Id` every response carries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectApiError(res: HttpResponse, expected: ExpectedError): any {
  const e = expectError(res, expected);
  expectRequestId(res);
  return e;
}
