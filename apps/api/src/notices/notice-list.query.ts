import { LIST_PARAMS, PageParams, readPageParams } from '../lists/list-params';
import { QueryParams } from '../query/query-params';
import { NOTICE_FILTER_PARAMS, NoticeFilterQuery, readNoticeFilter } from './notice-filter.query';

export interface NoticeListQuery extends NoticeFilterQuery {
  page: PageParams;
}

export function readNoticeListQuery(q: QueryParams): NoticeListQuery {
  q.allowOnly([...LIST_PARAMS, ...NOTICE_FILTER_PARAMS]);
  return { page: readPageParams(q), ...readNoticeFilter(q) };
}
