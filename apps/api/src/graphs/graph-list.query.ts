import { LIST_PARAMS, PageParams, readPageParams } from '../lists/list-params';
import { QueryParams } from '../query/query-params';
import { readTime } from '../query/query-values';

export interface GraphListQuery {
  page: PageParams;
  lastEvent: { gt?: number; gte?: number; lt?: number; lte?: number };
}

export const LAST_EVENT_FILTERS = ['gt', 'gte', 'lt', 'lte'] as const;

export function readGraphListQuery(q: QueryParams): GraphListQuery {
  q.allowOnly([...LIST_PARAMS, ...LAST_EVENT_FILTERS.map((op) => `last_event[${op}]`)]);
  const lastEvent: GraphListQuery['lastEvent'] = {};
  for (const op of LAST_EVENT_FILTERS) {
    const v = readTime(q, `last_event[${op}]`);
    if (v !== undefined) lastEvent[op] = v;
  }
  return { page: readPageParams(q), lastEvent };
}
