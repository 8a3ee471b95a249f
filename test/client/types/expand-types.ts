/*
 * Compile-time checks of the client's types, type-checked by types.spec.ts (never run): each
 * `@ts-expect-error` line must fail to compile, every other line must compile.
 */
import type {
  Event,
  ExpandedEvent,
  ExpandedListNode,
  ExpandedNode,
  FollowItem,
  GraphHistory,
  List,
  Node,
  NodeExpand,
  Task,
} from '@graph-history/client';

declare const client: GraphHistory;

export async function retrieveWithExpansions(): Promise<void> {
  const plain = await client.nodes.retrieve('gph_g', 'node_1');
  // @ts-expect-error a field that was not expanded is not in the type
  void plain.parent;
  // @ts-expect-error neither is a list expansion
  void plain.children;

  const withParent = await client.nodes.retrieve('gph_g', 'node_1', { expand: ['parent'] });
  if (withParent.parent_id !== null) {
    const parent: Node = withParent.parent;
    void parent;
  } else {
    // @ts-expect-error a root has no parent
    const none: Node = withParent.parent;
    void none;
  }

  const deep = await client.nodes.retrieve('gph_g', 'node_1', {
    expand: ['children.tasks', 'root.session', 'blocked.on.parent', 'messages'],
  });
  const tasks: List<Task> = deep.children.data[0]!.tasks;
  const rootSession: Node = deep.root.session;
  const waitedOn = deep.blocked?.on.data[0];
  if (waitedOn && waitedOn.parent_id !== null) void waitedOn.parent.id;
  void deep.messages.data[0]?.direction;
  void tasks;
  void rootSession;
  // @ts-expect-error root was expanded, but not its children
  void deep.root.children;

  // @ts-expect-error an unknown expansion
  await client.nodes.retrieve('gph_g', 'node_1', { expand: ['cousins'] });
  const four = await client.nodes.retrieve('gph_g', 'node_1', { expand: ['root.root.root.root'] });
  void four.root.root.root.root.id;
  const five = ['parent.parent.parent.parent.parent'] as const;
  // @ts-expect-error five levels is deeper than the API allows
  await client.nodes.retrieve('gph_g', 'node_1', { expand: five });
}

export async function listsWithExpansions(): Promise<void> {
  for await (const node of client.nodes.list('gph_g', { order: 'tree', expand: ['data.parent'] })) {
    if (node.parent_id !== null) void node.parent.depth;
  }
  client.nodes.list('gph_g', { expand: ['data.root.root.tasks'] });
  // @ts-expect-error on a list, data. is the first of the 4 levels
  client.nodes.list('gph_g', { expand: ['data.root.root.root.tasks'] });
  // @ts-expect-error list paths start with data.
  client.nodes.list('gph_g', { expand: ['parent'] });
  // @ts-expect-error unknown order
  client.nodes.list('gph_g', { order: 'random' });

  const page = await client.events.list('gph_g', { expand: ['data.node.parent'] });
  const event = page.data[0]!;
  const node = event.data.node;
  if (node && node.parent_id !== null) void node.parent.id;
  client.events.list('gph_g', { expand: ['data.node.root.tasks'] });
  // @ts-expect-error on events, data.node is 2 of the 4 levels
  client.events.list('gph_g', { expand: ['data.node.root.root.tasks'] });
  const plain = await client.events.list('gph_g').toArray({ limit: 10 });
  // @ts-expect-error data.node was not expanded
  void plain[0]!.data;
}

export async function following(signal: AbortSignal): Promise<void> {
  for await (const item of client.events.follow('gph_g', { after: 'evt_1', signal })) {
    if (item.object === 'retention_gap') {
      const resume: string = item.first_event_id;
      void resume;
    } else {
      const e: Event = item;
      void e.changes;
    }
  }
}

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <T extends true>(): T | undefined => undefined;
same<Equal<ExpandedNode, Node>>();
same<Equal<ExpandedListNode, Node>>();
same<Equal<ExpandedEvent, Event>>();
same<Equal<FollowItem, Event | import('@graph-history/client').RetentionGap>>();
same<Equal<Extract<NodeExpand, 'blocked.on'>, 'blocked.on'>>();
