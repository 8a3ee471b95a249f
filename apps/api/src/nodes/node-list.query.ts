import { NODE_STATES, type NodeKind, type NodeState } from '@graph-history/domain';
import { AsOf, readAsOf } from '../as-of/as-of';
import {
  EXPAND_PARAMS,
  ExpandRequest,
  MAX_DESCENDANTS_DEPTH,
  readExpand,
} from '../expand/expand-paths';
import { LIST_PARAMS, PageParams, readPageParams } from '../lists/list-params';
import { QueryParams } from '../query/query-params';
import { readEnum, readInteger, readString } from '../query/query-values';

export interface NodeListQuery {
  asOf: AsOf;
  page: PageParams;
  parentId?: string;
  ancestorId?: string;
  /** Levels below `ancestorId`. */
  maxDepth?: number;
  order: 'created' | 'tree';
  /** Whether `order` was given, to repeat it in the list's url. */
  orderGiven: boolean;
  kind?: NodeKind;
  state?: NodeState;
  expand: ExpandRequest;
}

const KINDS: NodeKind[] = ['session', 'agent'];

export function readNodeListQuery(q: QueryParams): NodeListQuery {
  q.allowOnly([
    'as_of',
    'parent_id',
    'ancestor_id',
    'max_depth',
    'order',
    'kind',
    'state',
    ...LIST_PARAMS,
    ...EXPAND_PARAMS,
  ]);
  const order = readEnum(q, 'order', ['created', 'tree'] as const);
  return {
    asOf: readAsOf(q),
    page: readPageParams(q),
    parentId: readString(q, 'parent_id'),
    ancestorId: readString(q, 'ancestor_id'),
    maxDepth: readInteger(q, 'max_depth', 1, MAX_DESCENDANTS_DEPTH),
    order: order ?? 'created',
    orderGiven: order !== undefined,
    kind: readEnum(q, 'kind', KINDS),
    state: readEnum(q, 'state', NODE_STATES),
    expand: readExpand(q, ['data']),
  };
}
