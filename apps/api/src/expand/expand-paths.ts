import { parameterInvalid } from '@graph-history/http';
import { expandTooDeep } from '../api-errors';
import { QueryParams } from '../query/query-params';
import { quote, readInteger } from '../query/query-values';

export const MAX_EXPAND_LEVELS = 4;
export const MAX_EXPAND_PATHS = 20;
export const MAX_DESCENDANTS_DEPTH = 1000;

/** Expansions that hold nodes, and so can be expanded further. */
const NODE_RELATIONS = [
  'parent',
  'root',
  'session',
  'requested_by',
  'blocked.on',
  'children',
  'descendants',
] as const;

/** What a node can expand; `blocked.on` is one expansion of two levels. */
export const NODE_EXPANSIONS = [...NODE_RELATIONS, 'tasks', 'spawns', 'waits', 'messages'] as const;
export type NodeExpansion = (typeof NODE_EXPANSIONS)[number];

const HOLDS_NODES: ReadonlySet<NodeExpansion> = new Set(NODE_RELATIONS);

/** What to expand on a node, and on each expanded node below it. */
export type ExpandTree = Map<NodeExpansion, ExpandTree>;

export interface ExpandRequest {
  /** Expansions of the nodes at the endpoint's prefix; null when the prefix itself is not expanded. */
  tree: ExpandTree | null;
  /** Levels below each expanded node that `descendants` reaches; null for all. */
  descendantsMaxDepth: number | null;
  /** The paths as given, for the `url` of lists. */
  paths: string[];
}

export const EXPAND_PARAMS = ['expand[]', 'descendants_max_depth'] as const;

/**
 * Reads `expand[]` and `descendants_max_depth`. `prefix` is where nodes sit in the response:
 * none for a node, `data` for the nodes list, `data.node` for the events list.
 */
export function readExpand(q: QueryParams, prefix: readonly string[]): ExpandRequest {
  const paths = q.list('expand[]');
  if (paths.length > MAX_EXPAND_PATHS) {
    throw parameterInvalid(
      'expand',
      `At most ${MAX_EXPAND_PATHS} expand paths are allowed per request; got ${paths.length}.`,
    );
  }
  let tree: ExpandTree | null = prefix.length === 0 ? new Map() : null;
  for (const path of paths) {
    const segments = path.split('.');
    if (segments.length > MAX_EXPAND_LEVELS) throw expandTooDeep(path, MAX_EXPAND_LEVELS);
    if (segments.some((s) => s === ''))
      throw parameterInvalid('expand', `The expand path ${quote(path)} is empty or malformed.`);
    if (prefix.some((p, i) => segments[i] !== p)) {
      throw parameterInvalid(
        'expand',
        `Cannot expand ${quote(path)}: paths on this endpoint start with ${prefix.join('.')}.`,
      );
    }
    const rest = segments.slice(prefix.length);
    if (rest.length === 0 && prefix.length < 2) {
      throw parameterInvalid(
        'expand',
        `Cannot expand ${quote(path)}: name a field below ${prefix.join('.') || 'the node'}.`,
      );
    }
    tree ??= new Map();
    addPath(tree, rest, path);
  }
  const descendantsMaxDepth =
    readInteger(q, 'descendants_max_depth', 1, MAX_DESCENDANTS_DEPTH) ?? null;
  if (descendantsMaxDepth !== null && !(tree && reaches(tree, 'descendants'))) {
    throw parameterInvalid(
      'descendants_max_depth',
      'descendants_max_depth applies only together with expand[]=descendants; add it or drop this parameter.',
    );
  }
  return { tree, descendantsMaxDepth, paths };
}

function addPath(tree: ExpandTree, rest: string[], path: string): void {
  let level = tree;
  let holdsNodes = true;
  for (let i = 0; i < rest.length;) {
    const name = rest[i] === 'blocked' && rest[i + 1] === 'on' ? 'blocked.on' : rest[i]!;
    i += name === 'blocked.on' ? 2 : 1;
    if (!holdsNodes || !(NODE_EXPANSIONS as readonly string[]).includes(name)) {
      throw parameterInvalid(
        'expand',
        `Cannot expand ${quote(path)}: ${quote(name)} is not expandable there. Nodes expand ${NODE_EXPANSIONS.join(', ')}.`,
      );
    }
    const key = name as NodeExpansion;
    let next = level.get(key);
    if (!next) level.set(key, (next = new Map()));
    level = next;
    holdsNodes = HOLDS_NODES.has(key);
  }
}

/** Whether `key` is expanded anywhere in the tree. */
export function reaches(tree: ExpandTree, key: NodeExpansion): boolean {
  for (const [k, sub] of tree) if (k === key || reaches(sub, key)) return true;
  return false;
}
