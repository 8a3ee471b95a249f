import { graphKeyFromId, isNoticeType, NOTICE_TYPES, NoticeType } from '@graph-history/domain';
import { parameterInvalid } from '@graph-history/http';
import { QueryParams } from '../query/query-params';
import { quote, readString } from '../query/query-values';

/** The filters the notices list and stream share. */
export const NOTICE_FILTER_PARAMS = ['graph', 'type'] as const;

export interface NoticeFilterQuery {
  /** `graph` as given (a graph id), and its key. */
  graph?: { id: string; key: string };
  /** `type` as given: one type or several, comma-separated. */
  type?: { raw: string; types: NoticeType[] };
}

export function readNoticeFilter(q: QueryParams): NoticeFilterQuery {
  const graphId = readString(q, 'graph');
  const rawType = readString(q, 'type');
  let graph: NoticeFilterQuery['graph'];
  if (graphId !== undefined) {
    const key = graphKeyFromId(graphId);
    if (key === null)
      throw parameterInvalid('graph', `graph must be a graph id (gph_…); got ${quote(graphId)}.`);
    graph = { id: graphId, key };
  }
  let type: NoticeFilterQuery['type'];
  if (rawType !== undefined) {
    const types = rawType.split(',');
    const bad = types.find((t) => !isNoticeType(t));
    if (bad !== undefined)
      throw parameterInvalid(
        'type',
        `type must be one or more of ${NOTICE_TYPES.join(', ')}, comma-separated; got ${quote(bad)}.`,
      );
    type = { raw: rawType, types: types as NoticeType[] };
  }
  return { graph, type };
}
