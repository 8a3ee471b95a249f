import type { Blocked, Event, List, Message, Node, Spawn, Task, Wait } from './resources.js';

/*
 * Expand paths as types. A path has at most 4 dotted levels counted from the endpoint's root, so
 * a node read allows 4 below the node, a nodes list 3 below `data`, an events list 2 below
 * `data.node`; `blocked.on` is one expansion of two levels.
 */

type NodeRelation = 'parent' | 'root' | 'session' | 'requested_by' | 'children' | 'descendants';
type ItemList = 'tasks' | 'spawns' | 'waits' | 'messages';
type Fewer = { 4: 3; 3: 2; 2: 1; 1: 0; 0: 0 };
type Levels = keyof Fewer;

/** Paths to expand below a node, at most `L` levels deep. */
export type NodeExpandPath<L extends Levels = 4> = L extends 0
  ? never
  : | ItemList
    | NodeRelation
    | `${NodeRelation}.${NodeExpandPath<Fewer[L]>}`
    | (L extends 1 ? never : 'blocked.on')
    | (L extends 1 | 2 ? never : `blocked.on.${NodeExpandPath<Fewer[Fewer[L]]>}`);

/** `expand` of `nodes.retrieve`. */
export type NodeExpand = NodeExpandPath<4>;
/** `expand` of `nodes.list`: paths start with `data.`. */
export type NodeListExpand = `data.${NodeExpandPath<3>}`;
/** `expand` of `events.list`: `data.node` and paths below it. */
export type EventListExpand = 'data.node' | `data.node.${NodeExpandPath<2>}`;

type Head<P extends string> = P extends `${infer H}.${string}` ? H : P;
type Below<P extends string, H extends string> = P extends `${H}.${infer R}` ? R : never;

/** A node with the expansions that `P` (paths below it) asks for. */
export type ExpandedNode<P extends string = never> = [P] extends [never]
  ? Node
  : Node & { [K in Extract<Head<P>, 'root' | 'session'>]: ExpandedNode<Below<P, K>> } & {
      [K in Extract<Head<P>, 'children' | 'descendants'>]: List<ExpandedNode<Below<P, K>>>;
    } & { [K in Extract<Head<P>, ItemList>]: List<ItemOf<K>> } & ('blocked' extends Head<P>
        ? { blocked: BlockedWithOn<Below<Below<P, 'blocked'>, 'on'>> | null }
        : unknown) &
      ('parent' extends Head<P> ? Optional<'parent', ExpandedNode<Below<P, 'parent'>>> : unknown) &
      ('requested_by' extends Head<P>
        ? Optional<'requested_by', ExpandedNode<Below<P, 'requested_by'>>>
        : unknown);

type BlockedWithOn<P extends string> = Blocked & { on: List<ExpandedNode<P>> };

/** An expansion beside a nullable `<field>_id`: present exactly when the id is not null. */
type Optional<F extends 'parent' | 'requested_by', T> =
  | ({ [K in `${F}_id`]: string } & { [K in F]: T })
  | ({ [K in `${F}_id`]: null } & { [K in F]?: undefined });

type ItemOf<K extends ItemList> = K extends 'tasks'
  ? Task
  : K extends 'spawns'
    ? Spawn
    : K extends 'waits'
      ? Wait
      : Message;

/** A node of a nodes list expanded with `P` (paths starting with `data.`). */
export type ExpandedListNode<P extends string = never> = ExpandedNode<Below<P, 'data'>>;

/**
 * An event of an events list expanded with `P`: with `data.node`, `data.node` is the event's
 * node as it stood just after the event, itself expanded by the paths below `data.node`.
 */
export type ExpandedEvent<P extends string = never> = [P] extends [never]
  ? Event
  : Event & { data: { node: ExpandedNode<Below<Below<P, 'data'>, 'node'>> | null } };
