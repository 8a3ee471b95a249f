import { Injectable } from '@nestjs/common';
import { decodeNoticeId } from '@graph-history/domain';
import { NoticeFilter, NoticeRepository } from '@graph-history/db';
import { ApiError, Principal, resourceMissing } from '@graph-history/http';
import { GraphAccessService } from '../graphs/graph-access.service';
import { quote } from '../query/query-values';
import { NoticeFilterQuery } from './notice-filter.query';

/**
 * What a key may see of its account's notices: a secret key (and the viewer) all of them, a
 * restricted key those of the graphs it lists. A `graph` filter must name a graph the key may
 * read (else the errors a read of that graph gives, with param `graph`).
 */
@Injectable()
export class NoticeAccessService {
  constructor(
    private readonly access: GraphAccessService,
    private readonly notices: NoticeRepository,
  ) {}

  async filterOf(principal: Principal, q: NoticeFilterQuery): Promise<NoticeFilter> {
    if (q.graph) {
      await this.access.find(principal, q.graph.id).catch((err: unknown) => {
        if (err instanceof ApiError && err.code === 'resource_missing')
          throw resourceMissing('graph', `No such graph: ${quote(q.graph!.id)}.`);
        throw err;
      });
    }
    return {
      accountId: principal.accountId,
      graphKeys: principal.graphKeys,
      graphKey: q.graph?.key,
      types: q.type?.types,
    };
  }

  /** The number of the notice a cursor names, if it is one this filter lists. */
  async position(filter: NoticeFilter, id: string, param: string): Promise<number> {
    const d = decodeNoticeId(id);
    if (d && d.accountId === filter.accountId && (await this.notices.has(filter, d.noticeNo)))
      return d.noticeNo;
    throw resourceMissing(param, `No such notice in this list: ${quote(id)}.`);
  }
}
