import { graphPublicId, nodeId } from '@graph-history/domain';
import { listUrl, UrlParam } from '../lists/list-envelope';
import { reaches, type ExpandTree, type NodeExpansion } from './expand-paths';

/** Every path of a tree, prefixed: `{children: {tasks}}` with `data` gives `data.children.tasks`. */
export function treePaths(tree: ExpandTree, prefix: string): string[] {
  const out: string[] = [];
  for (const [key, sub] of tree) {
    const path = prefix ? `${prefix}.${key}` : key;
    out.push(...(sub.size ? treePaths(sub, path) : [path]));
  }
  return out;
}

export const graphPath = (graphKey: string): string => `/api/v1/graphs/${graphPublicId(graphKey)}`;

export interface ListContext {
  graphId: number;
  graphKey: string;
  nodeNo: number;
  eventId: string | null;
  /** Expansions requested on the list's items. */
  nested: ExpandTree;
  descendantsMaxDepth: number | null;
}

/** `expand[]` for the nested paths, and the descendants depth limit when one of them uses it. */
function expandParams(paths: string[], c: ListContext): UrlParam[] {
  return [
    ...paths.map((p): UrlParam => ['expand[]', p]),
    ['descendants_max_depth', reaches(c.nested, 'descendants') ? c.descendantsMaxDepth : null],
  ];
}

/** Where the rest of a `children` expansion is listed: the nodes list, pinned to the moment. */
export function childrenUrl(c: ListContext): string {
  return listUrl(`${graphPath(c.graphKey)}/nodes`, [
    ['parent_id', nodeId(c.graphId, c.nodeNo)],
    ['as_of', c.eventId],
    ...expandParams(treePaths(c.nested, 'data'), c),
  ]);
}

/** Where the rest of a `descendants` expansion is listed: tree order, same depth limit and moment. */
export function descendantsUrl(c: ListContext, pageSize: number): string {
  return listUrl(`${graphPath(c.graphKey)}/nodes`, [
    ['ancestor_id', nodeId(c.graphId, c.nodeNo)],
    ['order', 'tree'],
    ['max_depth', c.descendantsMaxDepth],
    ['as_of', c.eventId],
    ['limit', pageSize],
    ...expandParams(treePaths(c.nested, 'data'), c),
  ]);
}

/** Lists held whole on the node (blocked.on, tasks…): the node read that returns them. */
export function nodeListUrl(c: ListContext, key: NodeExpansion): string {
  const paths = c.nested.size ? treePaths(c.nested, key) : [key];
  return listUrl(`${graphPath(c.graphKey)}/nodes/${nodeId(c.graphId, c.nodeNo)}`, [
    ['as_of', c.eventId],
    ...expandParams(paths, c),
  ]);
}
