import type { operations } from '../generated/openapi.js';

/*
 * The read API's objects, taken from the types generated from its OpenAPI document (by operation,
 * so they follow the document however its schemas are arranged). Expandable fields are left out
 * here and added by `expand` (see expand.ts), so a field is in a result type exactly when the
 * request asked for it.
 */

type Operation = keyof operations;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The 200 body of an operation. */
export type OkBody<Op extends Operation> = JsonOf<operations[Op]['responses'][200]>;
/** The query parameters of an operation, as the API names them. */
export type ApiQuery<Op extends Operation> = NonNullable<operations[Op]['parameters']['query']>;

type NodeSchema = OkBody<'retrieveNode'>;
type EventSchema = OkBody<'listEvents'>['data'][number];

/** Fields of a node that exist only when expanded. */
export type NodeExpandableField =
  | 'parent'
  | 'root'
  | 'session'
  | 'requested_by'
  | 'children'
  | 'descendants'
  | 'tasks'
  | 'spawns'
  | 'waits'
  | 'messages';

/** A list envelope: one page, with the `url` that defined it and whether more items follow. */
export interface List<T> {
  object: 'list';
  url: string;
  as_of_event_id: string | null;
  has_more: boolean;
  data: T[];
}

export type Graph = OkBody<'retrieveGraph'>;
export type Retention = Graph['retention'];
export type GraphCounts = Graph['counts'];
/** A Graph's `usage`: the tokens of every node and their estimated cost. */
export type UsageTotals = Graph['usage'];
/** A Node's `usage`/`descendant_usage`: tokens and their estimated cost, and the same per model. */
export type Usage = NonNullable<NodeSchema['descendant_usage']>;
export type UsageCounts = Usage['by_model'][string];
export type NodeState = NodeSchema['state'];
export type NodeKind = NodeSchema['kind'];
export type Attention = NonNullable<NodeSchema['attention']>;
export type TaskCounts = NodeSchema['task_counts'];
/** `blocked` of a node, without the `on` expansion. */
export type Blocked = Omit<NonNullable<NodeSchema['blocked']>, 'on'>;
/** A node with no expansion. */
export type Node = Omit<NodeSchema, NodeExpandableField | 'blocked'> & { blocked: Blocked | null };
export type Task = NonNullable<NodeSchema['tasks']>['data'][number];
export type Spawn = NonNullable<NodeSchema['spawns']>['data'][number];
export type Wait = NonNullable<NodeSchema['waits']>['data'][number];
export type Message = NonNullable<NodeSchema['messages']>['data'][number];
/** An event with no expansion. */
export type Event = Omit<EventSchema, 'data'>;
/** What an applied event changed that a person should know (see the API reference, "Notices"). */
export type Notice = OkBody<'listNotices'>['data'][number];
export type NoticeType = Notice['type'];
export type EventChange = Event['changes'][number];
export type EventSource = Event['source'];

/** The `error` object of an error answer. */
export type ErrorBody = JsonOf<operations['retrieveGraph']['responses'][400]>['error'];
export type ErrorType = ErrorBody['type'];
