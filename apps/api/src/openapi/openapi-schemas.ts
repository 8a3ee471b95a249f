import { NODE_STATES } from '@graph-history/domain';
import { NODE_FIELD_ORDER } from '../nodes/node-field-order';

/** JSON Schemas (draft 2020-12) of the read API's objects, for the OpenAPI 3.1 document. */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string) => ({ type: [type, 'null'] });
const int = { type: 'integer' };
const str = { type: 'string' };

/** A list envelope whose `data` holds items of `item`. */
const list = (item: object, description: string) => ({
  type: 'object',
  description,
  required: ['object', 'url', 'as_of_event_id', 'has_more', 'data'],
  properties: {
    object: { const: 'list' },
    url: {
      ...str,
      description:
        'This list with every parameter that defined it, including as_of; add starting_after for the next page.',
    },
    as_of_event_id: {
      ...nullable('string'),
      description: 'The event the list is as of; null for the graph list.',
    },
    has_more: { type: 'boolean' },
    data: { type: 'array', items: item },
  },
  additionalProperties: false,
});

const byState = {
  type: 'object',
  required: [...NODE_STATES],
  properties: Object.fromEntries(NODE_STATES.map((s) => [s, int])),
  additionalProperties: false,
};

export const schemas = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['type', 'code', 'message', 'param', 'doc_url'],
        properties: {
          type: {
            enum: [
              'invalid_request_error',
              'authentication_error',
              'permission_error',
              'rate_limit_error',
              'api_error',
            ],
          },
          code: str,
          message: str,
          param: nullable('string'),
          doc_url: str,
          first_event_id: {
            ...nullable('string'),
            description:
              'node_not_yet_created: the creating event; outside_retention_window: the oldest retained event.',
          },
          last_event_id: {
            ...nullable('string'),
            description: 'outside_retention_window: the newest retained event.',
          },
        },
      },
    },
  },
  Graph: {
    type: 'object',
    required: [
      'id',
      'object',
      'as_of_event_id',
      'source',
      'url',
      'created',
      'last_event',
      'retention',
      'counts',
    ],
    properties: {
      id: { ...str, pattern: '^gph_[A-Za-z0-9_-]{1,64}$' },
      object: { const: 'graph' },
      as_of_event_id: {
        ...nullable('string'),
        description: 'Event the counts are as of; null only before the first event is applied.',
      },
      source: { enum: ['watch', 'paste', 'upload'] },
      url: { ...str, description: 'Viewer address; opens only for the owning account.' },
      created: int,
      last_event: {
        ...nullable('integer'),
        description: 'Time of the event the graph is as of; null only before the first event.',
      },
      retention: ref('Retention'),
      counts: ref('GraphCounts'),
      apply_error: {
        type: 'object',
        description:
          'Present only while the graph stopped applying at a stored event that cannot be applied: newer events are stored, not shown.',
        required: ['code', 'message', 'since'],
        properties: { code: { const: 'event_rejected' }, message: str, since: int },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  Retention: {
    type: 'object',
    required: [
      'event_count',
      'first_event_id',
      'first_event_created',
      'last_event_id',
      'last_event_created',
    ],
    properties: {
      event_count: int,
      first_event_id: nullable('string'),
      first_event_created: nullable('integer'),
      last_event_id: nullable('string'),
      last_event_created: nullable('integer'),
    },
    additionalProperties: false,
  },
  GraphCounts: {
    type: 'object',
    required: ['nodes', 'sessions', 'agents', 'stale', 'blocked', 'by_state'],
    properties: {
      nodes: int,
      sessions: int,
      agents: int,
      stale: int,
      blocked: int,
      by_state: byState,
    },
    additionalProperties: false,
  },
  Node: {
    type: 'object',
    required: [...NODE_FIELD_ORDER],
    properties: {
      id: { ...str, pattern: '^node_' },
      object: { const: 'node' },
      as_of_event_id: str,
      graph_id: str,
      provider_ref: str,
      provider: str,
      kind: { enum: ['session', 'agent'] },
      parent_id: nullable('string'),
      parent: { ...ref('Node'), description: 'Expanded with expand[]=parent; absent for a root.' },
      root_id: str,
      root: ref('Node'),
      session_id: str,
      session: ref('Node'),
      requested_by_id: nullable('string'),
      requested_by: ref('Node'),
      depth: int,
      state: { enum: [...NODE_STATES] },
      stale: {
        type: 'boolean',
        description: 'Working, but silent longer than the stale threshold at the read’s moment.',
      },
      attention: {
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            required: ['reason', 'message', 'since'],
            properties: {
              reason: { enum: ['permission', 'question', 'error'] },
              message: nullable('string'),
              since: int,
            },
            additionalProperties: false,
          },
        ],
      },
      title: nullable('string'),
      summary: nullable('string'),
      headline: nullable('string'),
      purpose: nullable('string'),
      agent_type: nullable('string'),
      background: nullable('boolean'),
      link_method: { enum: ['spawn_call_id', 'explicit', 'inferred', null] },
      spawn_call_id: nullable('string'),
      cwd: nullable('string'),
      created: int,
      ended: nullable('integer'),
      last_event: int,
      child_count: int,
      descendant_count: int,
      background_agent_count: int,
      task_counts: {
        type: 'object',
        required: ['total', 'pending', 'in_progress', 'completed', 'open'],
        properties: { total: int, pending: int, in_progress: int, completed: int, open: int },
        additionalProperties: false,
      },
      blocked: {
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            required: ['on_ids', 'starting', 'node_count', 'open_tasks', 'cycle'],
            properties: {
              on_ids: { type: 'array', items: str },
              on: { ...ref('NodeList'), description: 'Expanded with expand[]=blocked.on.' },
              starting: int,
              node_count: int,
              open_tasks: int,
              cycle: { type: 'boolean' },
            },
            additionalProperties: false,
          },
        ],
      },
      children: {
        ...ref('NodeList'),
        description: 'Expanded: the first 100 children, oldest first.',
      },
      descendants: {
        ...ref('NodeList'),
        description: 'Expanded: the first 1,000 nodes below, in tree order.',
      },
      tasks: ref('TaskList'),
      spawns: ref('SpawnList'),
      waits: ref('WaitList'),
      messages: ref('MessageList'),
    },
    additionalProperties: false,
  },
  Event: {
    type: 'object',
    required: [
      'id',
      'object',
      'type',
      'created',
      'graph_id',
      'node_id',
      'source',
      'payload',
      'changes',
    ],
    properties: {
      id: { ...str, pattern: '^evt_' },
      object: { const: 'event' },
      type: str,
      created: int,
      graph_id: str,
      node_id: str,
      source: {
        type: 'object',
        required: ['provider', 'provider_version', 'adapter'],
        properties: { provider: str, provider_version: str, adapter: str },
      },
      payload: { type: 'object' },
      changes: {
        type: 'array',
        items: {
          type: 'object',
          required: ['node_id', 'created', 'fields'],
          properties: {
            node_id: str,
            created: { type: 'boolean' },
            fields: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                required: ['from', 'to'],
                properties: { from: {}, to: {} },
              },
            },
          },
        },
      },
      data: {
        type: 'object',
        description: 'Present only with expand[]=data.node.',
        required: ['node'],
        properties: { node: { oneOf: [ref('Node'), { type: 'null' }] } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  Task: {
    type: 'object',
    required: ['object', 'id', 'content', 'status', 'active_form', 'created', 'updated'],
    properties: {
      object: { const: 'task' },
      id: str,
      content: str,
      status: { enum: ['pending', 'in_progress', 'completed'] },
      active_form: nullable('string'),
      created: int,
      updated: int,
    },
    additionalProperties: false,
  },
  Spawn: {
    type: 'object',
    required: [
      'object',
      'spawn_call_id',
      'node_id',
      'agent_type',
      'purpose',
      'background',
      'created',
    ],
    properties: {
      object: { const: 'spawn' },
      spawn_call_id: nullable('string'),
      node_id: str,
      agent_type: str,
      purpose: str,
      background: { type: 'boolean' },
      created: int,
    },
    additionalProperties: false,
  },
  Wait: {
    type: 'object',
    required: ['object', 'on_id', 'reason', 'started', 'ended'],
    properties: {
      object: { const: 'wait' },
      on_id: str,
      reason: nullable('string'),
      started: int,
      ended: nullable('integer'),
    },
    additionalProperties: false,
  },
  Message: {
    type: 'object',
    required: ['object', 'id', 'direction', 'from_id', 'to_id', 'created', 'text'],
    properties: {
      object: { const: 'message' },
      id: str,
      direction: { enum: ['sent', 'received'] },
      from_id: str,
      to_id: str,
      created: int,
      text: { ...nullable('string'), maxLength: 2000 },
    },
    additionalProperties: false,
  },
  GraphList: list(ref('Graph'), 'Graphs, most recently active first.'),
  NodeList: list(ref('Node'), 'Nodes as of as_of_event_id.'),
  EventList: list(ref('Event'), 'Retained events.'),
  TaskList: list(ref('Task'), 'The node’s task list.'),
  SpawnList: list(ref('Spawn'), 'Children the node asked for, oldest first.'),
  WaitList: list(ref('Wait'), 'Waits the node started, oldest first.'),
  MessageList: list(ref('Message'), 'Messages the node sent or received, oldest first.'),
};
