import { Injectable } from '@nestjs/common';
import { NoticeFilter, NoticeRepository, NoticeRow } from '@graph-history/db';
import type { StreamedNotice } from './notice-stream';

/** Notices a stream's catch-up or an account feed reads at once. */
export const NOTICE_PAGE_SIZE = 100;

/** The notice streams' reads (on the primary: notices are read as soon as they are announced). */
@Injectable()
export class NoticeReader {
  constructor(private readonly notices: NoticeRepository) {}

  /** The next notices of the filter after `after`, oldest first; `more` when a page is full. */
  async after(
    filter: NoticeFilter,
    after: number,
  ): Promise<{ items: StreamedNotice[]; more: boolean }> {
    const rows = await this.notices.page(filter, NOTICE_PAGE_SIZE, { newerThan: after });
    return { items: rows.map(streamed), more: rows.length === NOTICE_PAGE_SIZE };
  }

  oldest(accountId: number): Promise<number | null> {
    return this.notices.oldest(accountId);
  }

  newest(accountId: number): Promise<number> {
    return this.notices.newest(accountId);
  }
}

function streamed(row: NoticeRow): StreamedNotice {
  const n = JSON.parse(row.body) as { id: string; type: string; graph_id: string };
  return {
    noticeNo: row.noticeNo,
    id: n.id,
    type: n.type,
    graphKey: n.graph_id.slice('gph_'.length),
    body: row.body,
  };
}
