import { NOTICE_LIST, queryString } from '../http/query.js';
import type { RequestOptions, Transport } from '../http/transport.js';
import { PageList } from '../pagination/page-list.js';
import {
  streamNotices,
  type NoticeStreamItem,
  type NoticeStreamOptions,
} from '../stream/stream-notices.js';
import type { NoticeListParams } from '../types/params.js';
import type { Notice } from '../types/resources.js';
import { noticeFilterQuery } from './notice-filter.js';
import { pageFetcher } from './paths.js';

export class Notices {
  constructor(private readonly transport: Transport) {}

  /** The account's notices (those the key may see), newest first; filters `graph`, `type`. */
  list(params: NoticeListParams = {}, options: RequestOptions = {}): PageList<Notice> {
    const { limit, startingAfter, endingBefore } = params;
    const query = { limit, startingAfter, endingBefore, ...noticeFilterQuery(params) };
    return new PageList<Notice>({
      path: `/api/v1/notices${queryString(query, NOTICE_LIST)}`,
      fetchPage: pageFetcher(this.transport),
      backward: endingBefore !== undefined,
      signal: options.signal,
    });
  }

  /**
   * The account's notice stream (Server-Sent Events): each new notice once and in order,
   * reconnecting with the last notice id, until `signal` aborts or the loop breaks; a NoticeGap
   * where notices were dropped before they could be read.
   */
  stream(options: NoticeStreamOptions = {}): AsyncGenerator<NoticeStreamItem, void, undefined> {
    return streamNotices(this.transport, options);
  }
}
