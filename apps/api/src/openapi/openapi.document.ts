import { ERROR_CATALOG } from '../docs/error-catalog';
import { NOTICE_TYPES, PUBLIC_SCHEMAS } from '@graph-history/domain';
import {
  MAX_DESCENDANTS_DEPTH,
  MAX_EXPAND_LEVELS,
  MAX_EXPAND_PATHS,
  NODE_EXPANSIONS,
} from '../expand/expand-paths';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const query = (name: string, schema: object, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
const path = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});

const header = (description: string, type = 'string') => ({ description, schema: { type } });
const commonHeaders = {
  'Request-Id': header('req_… identifying this request; quote it when reporting a problem.'),
};
const okHeaders = {
  ...commonHeaders,
  ETag: header(
    'Strong tag of the body; send it back in If-None-Match to get 304 while nothing changed.',
  ),
  'RateLimit-Limit': header(
    "Size of the tighter bucket (the key's or its account's), in tokens; a request costs 1 token plus 1 per full 4 KB of its body.",
    'integer',
  ),
  'RateLimit-Remaining': header(
    'Whole tokens left in that bucket after this request was charged.',
    'integer',
  ),
  'RateLimit-Reset': header('Seconds until that bucket is full again.', 'integer'),
  'Request-Cost': header('Tokens this request cost.', 'integer'),
};

const errorResponse = (description: string) => ({
  description,
  headers: commonHeaders,
  content: { 'application/json': { schema: ref('Error') } },
});

/** Responses every authenticated read can give besides its 200. */
const readErrors = {
  '304': {
    description: 'Not modified: If-None-Match matched the ETag. No body.',
    headers: commonHeaders,
  },
  '400': errorResponse(
    'parameter_invalid, parameter_unknown, expand_too_deep or expand_too_large.',
  ),
  '401': errorResponse('api_key_invalid.'),
  '403': errorResponse('api_key_restricted.'),
  '404': errorResponse('resource_missing or node_not_yet_created.'),
  '405': errorResponse('method_not_allowed.'),
  '410': errorResponse('outside_retention_window.'),
  '429': errorResponse('rate_limit; see Retry-After.'),
  '500': errorResponse('api_error (503 while the database is unreachable).'),
};

/** A Server-Sent Events stream's answers: each message's data is `object` (e.g. 'an Event'). */
const sseResponses = (object: string) => ({
  '200': {
    description: 'The stream, open until the client or the server ends it.',
    headers: {
      'Request-Id': commonHeaders['Request-Id'],
      'RateLimit-Limit': okHeaders['RateLimit-Limit'],
      'RateLimit-Remaining': okHeaders['RateLimit-Remaining'],
      'RateLimit-Reset': okHeaders['RateLimit-Reset'],
    },
    content: {
      'text/event-stream': {
        schema: {
          type: 'string',
          description: `SSE messages; each message’s data is ${object} object.`,
        },
      },
    },
  },
  ...readErrors,
});

const ok = (schema: string, description: string) => ({
  '200': {
    description,
    headers: okHeaders,
    content: { 'application/json': { schema: ref(schema) } },
  },
  ...readErrors,
});

const listParams = [param('limit'), param('starting_after'), param('ending_before')];
const noticeFilters = [
  query(
    'graph',
    { type: 'string' },
    'gph_…: only this graph’s notices (a graph the key may read).',
  ),
  query(
    'type',
    { type: 'string' },
    `Only these types, comma-separated: ${NOTICE_TYPES.join(', ')}.`,
  ),
];
const expandParams = [param('expand'), param('descendants_max_depth')];

/** The OpenAPI 3.1 description of the read API, served at /api/v1/openapi.json. */
export function openApiDocument(serverUrl: string) {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Graph History Read API',
      version: 'v1',
      description:
        'Read-only API over live shares of AI-agent activity: graphs of nodes with a bounded history of events, each readable as of any retained event. Errors: ' +
        ERROR_CATALOG.map((e) => `${e.code} (${e.status})`).join(', ') +
        '. Human reference: /docs.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }, { basic: [] }],
    paths: {
      '/api/v1/graphs': {
        get: {
          operationId: 'listGraphs',
          summary: 'List graphs',
          description:
            'Watch graphs the key can read, by last_event desc then id. Activity reorders the list: pin a page set with last_event[lte]=<the first page’s newest last_event>.',
          parameters: [
            ...listParams,
            ...(['gt', 'gte', 'lt', 'lte'] as const).map((op) =>
              query(
                `last_event[${op}]`,
                { type: 'integer', minimum: 0 },
                `Keep graphs whose last_event is ${op} the value (ms).`,
              ),
            ),
            param('if_none_match'),
          ],
          responses: ok(
            'GraphList',
            'A page of graphs; each graph’s counts are as of its latest event.',
          ),
        },
      },
      '/api/v1/graphs/{graph_id}': {
        get: {
          operationId: 'retrieveGraph',
          summary: 'Retrieve a graph',
          parameters: [path('graph_id', 'gph_…'), param('as_of'), param('if_none_match')],
          responses: ok('Graph', 'The graph as of as_of (now when omitted).'),
        },
      },
      '/api/v1/graphs/{graph_id}/nodes/{node_id}': {
        get: {
          operationId: 'retrieveNode',
          summary: 'Retrieve a node',
          parameters: [
            path('graph_id', 'gph_…'),
            path('node_id', 'node_…'),
            param('as_of'),
            ...expandParams,
            param('if_none_match'),
          ],
          responses: ok('Node', 'The node as it stood at as_of, with expansions.'),
        },
      },
      '/api/v1/graphs/{graph_id}/nodes': {
        get: {
          operationId: 'listNodes',
          summary: 'List nodes',
          description:
            'Nodes as of as_of; default order created asc then id, order=tree gives depth-first pre-order with children oldest first.',
          parameters: [
            path('graph_id', 'gph_…'),
            param('as_of'),
            query('parent_id', { type: 'string' }, 'Only children of this node.'),
            query('ancestor_id', { type: 'string' }, 'Only nodes below this node.'),
            query(
              'max_depth',
              { type: 'integer', minimum: 1, maximum: MAX_DESCENDANTS_DEPTH },
              'Levels below ancestor_id; requires ancestor_id.',
            ),
            query('order', { enum: ['created', 'tree'] }, 'created (default) or tree.'),
            query('kind', { enum: ['session', 'agent'] }, 'Only nodes of this kind.'),
            query(
              'state',
              { enum: ['working', 'input_required', 'idle', 'completed', 'failed', 'canceled'] },
              'Only nodes in this state at as_of.',
            ),
            ...listParams,
            ...expandParams,
            param('if_none_match'),
          ],
          responses: ok('NodeList', 'A page of nodes.'),
        },
      },
      '/api/v1/graphs/{graph_id}/events': {
        get: {
          operationId: 'listEvents',
          summary: 'List events',
          description:
            'Retained events up to as_of, newest first by default. expand[]=data.node adds each event’s node as it stood just after the event.',
          parameters: [
            path('graph_id', 'gph_…'),
            query(
              'order',
              { enum: ['asc', 'desc'] },
              'asc: oldest first; desc (default): newest first.',
            ),
            param('as_of'),
            ...listParams,
            ...expandParams,
            param('if_none_match'),
          ],
          responses: ok('EventList', 'A page of events.'),
        },
      },
      '/api/v1/graphs/{graph_id}/events/stream': {
        get: {
          operationId: 'streamEvents',
          summary: 'Stream events',
          description:
            'Server-Sent Events: every event after Last-Event-ID (or starting_after; without either, from now), oldest first, then each new one, each once and in order. A message per event: id = the event id, event: message, data = the Event object as List events returns it. event: gap (data: what the 410 outside_retention_window carries) when the position was trimmed, then on from the oldest retained event; event: error (data: the error envelope) before the stream ends (e.g. api_key_invalid once the key is revoked); comment lines as heartbeats. Opening costs one request; what follows is not charged. Past STREAM_MAX_PER_ACCOUNT open streams of the account (or STREAM_MAX_PER_PROCESS in all) on the server: 429 rate_limit.',
          parameters: [
            path('graph_id', 'gph_…'),
            {
              name: 'Last-Event-ID',
              in: 'header',
              required: false,
              schema: { type: 'string' },
              description: 'evt_… of this graph: resume after it (wins over starting_after).',
            },
            query('starting_after', { type: 'string' }, 'evt_… of this graph: start after it.'),
            ...expandParams,
          ],
          responses: sseResponses('an Event'),
        },
      },
      '/api/v1/notices': {
        get: {
          operationId: 'listNotices',
          summary: 'List notices',
          description:
            'The account’s notices, newest first: what applied events changed that a person should know (a node needs input, fails, joins a wait cycle; a session ends; a graph is quarantined). A restricted key sees those of the graphs it lists. The newest NOTICES_KEPT (default 1,000) per account are kept.',
          parameters: [...listParams, ...noticeFilters],
          responses: ok('NoticeList', 'A page of notices.'),
        },
      },
      '/api/v1/notices/stream': {
        get: {
          operationId: 'streamNotices',
          summary: 'Stream notices',
          description:
            'Server-Sent Events: every notice of the account (that the key may see, within the filters) after Last-Event-ID (or starting_after; without either, from now), oldest first, then each new one, each once and in order. A message per notice: id = the notice id, event: message, data = the Notice object as List notices returns it. A position older than the kept notices first gets event: gap (data: object gap, code outside_retention_window, message, first_notice_id and last_notice_id, the oldest and newest kept), then goes on from the oldest kept. event: error (data: the error envelope) before the stream ends (e.g. api_key_invalid once the key is revoked); comment lines as heartbeats. Opening costs one request; what follows is not charged. Past STREAM_MAX_PER_ACCOUNT open streams of the account (or STREAM_MAX_PER_PROCESS in all) on the server: 429 rate_limit.',
          parameters: [
            {
              name: 'Last-Event-ID',
              in: 'header',
              required: false,
              schema: { type: 'string' },
              description: 'ntc_… of this account: resume after it (wins over starting_after).',
            },
            query('starting_after', { type: 'string' }, 'ntc_… of this account: start after it.'),
            ...noticeFilters,
          ],
          responses: sseResponses('a Notice'),
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
        basic: {
          type: 'http',
          scheme: 'basic',
          description: 'The key as user name, empty password.',
        },
      },
      parameters: {
        limit: query(
          'limit',
          { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
          'Page size, 1 to 1,000.',
        ),
        starting_after: query(
          'starting_after',
          { type: 'string' },
          'Cursor: an id from the list; returns the page after it.',
        ),
        ending_before: query(
          'ending_before',
          { type: 'string' },
          'Cursor: an id from the list; returns the page before it. Not with starting_after.',
        ),
        as_of: query(
          'as_of',
          { type: 'string', pattern: '^(evt_[A-Za-z0-9_-]+|[0-9]+)$' },
          'An event id (the state just after it) or a Unix time in ms (after the last event at or before it). Must be within retention.',
        ),
        expand: {
          name: 'expand[]',
          in: 'query',
          required: false,
          schema: { type: 'array', maxItems: MAX_EXPAND_PATHS, items: { type: 'string' } },
          style: 'form',
          explode: true,
          description: `Paths to expand, one per entry, at most ${MAX_EXPAND_LEVELS} levels and ${MAX_EXPAND_PATHS} paths: ${NODE_EXPANSIONS.join(', ')}; on lists prefixed with data. (events: data.node).`,
        },
        descendants_max_depth: query(
          'descendants_max_depth',
          { type: 'integer', minimum: 1, maximum: MAX_DESCENDANTS_DEPTH },
          'Levels below the node that the descendants expansion reaches; only with expand[]=descendants.',
        ),
        if_none_match: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'An ETag of an earlier response.',
        },
      },
      // JSON Schemas (draft 2020-12) of the public objects, as the serializers use them
      schemas: PUBLIC_SCHEMAS as Record<string, object>,
    },
  };
}
