import { AsOf, readAsOf } from '../as-of/as-of';
import { EXPAND_PARAMS, ExpandRequest, readExpand } from '../expand/expand-paths';
import { QueryParams } from '../query/query-params';

export interface NodeReadQuery {
  asOf: AsOf;
  expand: ExpandRequest;
}

export function readNodeReadQuery(q: QueryParams): NodeReadQuery {
  q.allowOnly(['as_of', ...EXPAND_PARAMS]);
  return { asOf: readAsOf(q), expand: readExpand(q, []) };
}
