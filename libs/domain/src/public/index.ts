import { ErrorSchema } from './error.schema';
import { EventSchema } from './event.schema';
import { GraphCountsSchema, GraphSchema, RetentionSchema } from './graph.schema';
import { listSchema } from './list.schema';
import { MessageSchema, SpawnSchema, TaskSchema, WaitSchema } from './node-items.schema';
import { NodeSchema } from './node.schema';
import { NoticeSchema } from './notice.schema';
import { UsageCountsSchema, UsageSchema, UsageTotalsSchema } from './usage.schema';
import { ref } from './json-schema';

export { fieldOrder, inFieldOrder } from './json-schema';
export * from './error.schema';
export * from './event.schema';
export * from './graph.schema';
export * from './list.schema';
export * from './node-items.schema';
export * from './node.schema';
export * from './notice.schema';
export * from './usage.schema';

/**
 * Every public object's schema by name: the OpenAPI document's components, and what the API's
 * serializers are compiled from (references point into this map).
 */
export const PUBLIC_SCHEMAS = {
  Error: ErrorSchema,
  Graph: GraphSchema,
  Retention: RetentionSchema,
  GraphCounts: GraphCountsSchema,
  Usage: UsageSchema,
  UsageCounts: UsageCountsSchema,
  UsageTotals: UsageTotalsSchema,
  Node: NodeSchema,
  Event: EventSchema,
  Task: TaskSchema,
  Spawn: SpawnSchema,
  Wait: WaitSchema,
  Message: MessageSchema,
  Notice: NoticeSchema,
  GraphList: listSchema(ref('Graph'), 'Graphs, most recently active first.'),
  NodeList: listSchema(ref('Node'), 'Nodes as of as_of_event_id.'),
  EventList: listSchema(ref('Event'), 'Retained events.'),
  TaskList: listSchema(ref('Task'), 'The node’s task list.'),
  SpawnList: listSchema(ref('Spawn'), 'Children the node asked for, oldest first.'),
  WaitList: listSchema(ref('Wait'), 'Waits the node started, oldest first.'),
  MessageList: listSchema(ref('Message'), 'Messages the node sent or received, oldest first.'),
  NoticeList: listSchema(ref('Notice'), 'The account’s notices, newest first.'),
};

export type PublicSchemaName = keyof typeof PUBLIC_SCHEMAS;
