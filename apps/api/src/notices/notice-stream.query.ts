import { QueryParams } from '../query/query-params';
import { readString } from '../query/query-values';
import { NOTICE_FILTER_PARAMS, NoticeFilterQuery, readNoticeFilter } from './notice-filter.query';

export interface NoticeStreamQuery extends NoticeFilterQuery {
  /** Where the stream resumes: Last-Event-ID, else `starting_after`; absent: from now. */
  startingAfter: string | undefined;
}

export function readNoticeStreamQuery(
  q: QueryParams,
  lastEventId: string | string[] | undefined,
): NoticeStreamQuery {
  q.allowOnly(['starting_after', ...NOTICE_FILTER_PARAMS]);
  const fromQuery = readString(q, 'starting_after');
  const header = typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : undefined;
  return { startingAfter: header ?? fromQuery, ...readNoticeFilter(q) };
}
