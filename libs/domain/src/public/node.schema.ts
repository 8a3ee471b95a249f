import { Type, type Static } from '@sinclair/typebox';
import { ATTENTION_REASONS, LINK_METHODS, NODE_STATES } from '../node';
import { bool, closed, fieldOrder, int, nullable, oneOf, ref, str } from './json-schema';
import type { Usage } from '../usage/usage';

/** A nested Node or list of an expansion; its shape is the Node's (or NodeList's) own. */
type Expansion = Record<string, unknown>;

const expansion = (name: string, description?: string) =>
  Type.Optional(ref<Expansion>(name, description === undefined ? {} : { description }));

const BlockedSchema = closed({
  on_ids: Type.Array(str()),
  on: expansion('NodeList', 'Expanded with expand[]=blocked.on.'),
  starting: int(),
  node_count: int(),
  open_tasks: int(),
  cycle: bool(),
});

/** A Usage, or null while no tokens were reported. */
const usageOrNull = (description: string) =>
  Type.Unsafe<Usage | null>({
    anyOf: [{ $ref: '#/components/schemas/Usage' }, { type: 'null' }],
    description,
  });

/**
 * The read API's Node. Property order is the response's field order; expansions sit beside
 * their `_id` field, lists at the end.
 */
export const NodeSchema = closed({
  id: str({ pattern: '^node_' }),
  object: Type.Literal('node'),
  as_of_event_id: str(),
  graph_id: str(),
  provider_ref: str(),
  provider: str(),
  kind: oneOf(['session', 'agent'] as const),
  parent_id: nullable(str()),
  parent: expansion('Node', 'Expanded with expand[]=parent; absent for a root.'),
  root_id: str(),
  root: expansion('Node'),
  session_id: str(),
  session: expansion('Node'),
  requested_by_id: nullable(str()),
  requested_by: expansion('Node'),
  depth: int(),
  state: oneOf(NODE_STATES),
  stale: bool({
    description: 'Working, but silent longer than the stale threshold at the read’s moment.',
  }),
  attention: nullable(
    closed({ reason: oneOf(ATTENTION_REASONS), message: nullable(str()), since: int() }),
  ),
  title: nullable(str()),
  summary: nullable(str()),
  headline: nullable(str()),
  purpose: nullable(str()),
  agent_type: nullable(str()),
  background: nullable(bool()),
  link_method: oneOf([...LINK_METHODS, null] as const),
  spawn_call_id: nullable(str()),
  cwd: nullable(str()),
  created: int(),
  ended: nullable(int()),
  last_event: int(),
  child_count: int(),
  descendant_count: int(),
  background_agent_count: int(),
  task_counts: closed({
    total: int(),
    pending: int(),
    in_progress: int(),
    completed: int(),
    open: int(),
  }),
  blocked: nullable(BlockedSchema),
  usage: usageOrNull(
    'Tokens the node itself reported, with their estimated cost; null before any.',
  ),
  descendant_usage: usageOrNull(
    'Tokens of the node’s whole subtree, its own included, with their estimated cost; null before any.',
  ),
  children: expansion('NodeList', 'Expanded: the first 100 children, oldest first.'),
  descendants: expansion('NodeList', 'Expanded: the first 1,000 nodes below, in tree order.'),
  tasks: expansion('TaskList'),
  spawns: expansion('SpawnList'),
  waits: expansion('WaitList'),
  messages: expansion('MessageList'),
});

/** The read API's Node, as a response carries it. */
export type PublicNode = Static<typeof NodeSchema>;

/** Fields of a Node that come from another place than the stored record. */
type ReadTimeField = 'object' | 'as_of_event_id' | 'stale';
type ExpansionField =
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

/** The Node's stored fields: everything but `object`, `as_of_event_id`, `stale` and expansions. */
export type PublicNodeFields = Omit<PublicNode, ReadTimeField | ExpansionField | 'blocked'> & {
  blocked: Omit<NonNullable<PublicNode['blocked']>, 'on'> | null;
};

/** The Node's field names in response order (expansions included), and `blocked`'s. */
export const NODE_FIELDS = fieldOrder(NodeSchema);
export const NODE_BLOCKED_FIELDS = fieldOrder(BlockedSchema);

/** The Node's fields that hold a Usage (or null). */
export const NODE_USAGE_FIELDS: readonly string[] = [
  'usage',
  'descendant_usage',
] satisfies (keyof PublicNode)[];
