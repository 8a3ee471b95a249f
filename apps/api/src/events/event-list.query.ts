import { AsOf, readAsOf } from '../as-of/as-of';
import { EXPAND_PARAMS, ExpandRequest, readExpand } from '../expand/expand-paths';
import { LIST_PARAMS, PageParams, readPageParams } from '../lists/list-params';
import { QueryParams } from '../query/query-params';
import { readEnum } from '../query/query-values';

export interface EventListQuery {
  asOf: AsOf;
  order: 'asc' | 'desc';
  page: PageParams;
  /** `expand` below `data.node`. */
  expand: ExpandRequest;
}

export function readEventListQuery(q: QueryParams): EventListQuery {
  q.allowOnly(['as_of', 'order', ...LIST_PARAMS, ...EXPAND_PARAMS]);
  return {
    asOf: readAsOf(q),
    order: readEnum(q, 'order', ['asc', 'desc'] as const) ?? 'desc',
    page: readPageParams(q),
    expand: readExpand(q, ['data', 'node']),
  };
}
