import { Injectable } from '@nestjs/common';
import { NoticeRepository } from '@graph-history/db';
import { Principal } from '@graph-history/http';
import { listUrl } from '../lists/list-envelope';
import { listJson } from '../lists/list-json';
import { NoticeAccessService } from './notice-access.service';
import { NoticeListQuery } from './notice-list.query';

/**
 * GET /notices: the account's notices the key may see, newest first, with the list conventions
 * (limit, starting_after / ending_before by notice id, has_more). Bodies are the stored JSON.
 */
@Injectable()
export class NoticeListService {
  constructor(
    private readonly access: NoticeAccessService,
    private readonly notices: NoticeRepository,
  ) {}

  async list(principal: Principal, query: NoticeListQuery): Promise<string> {
    const filter = await this.access.filterOf(principal, query);
    const { limit, startingAfter, endingBefore } = query.page;
    const position =
      startingAfter !== undefined
        ? { olderThan: await this.access.position(filter, startingAfter, 'starting_after') }
        : endingBefore !== undefined
          ? { newerThan: await this.access.position(filter, endingBefore, 'ending_before') }
          : {};
    const rows = await this.notices.page(filter, limit + 1, position);
    const data = rows.slice(0, limit);
    if (endingBefore !== undefined) data.reverse();
    const url = listUrl('/api/v1/notices', [
      ['graph', query.graph?.id],
      ['type', query.type?.raw],
    ]);
    return listJson(
      url,
      null,
      rows.length > limit,
      data.map((r) => r.body),
    );
  }
}
