import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { decodeNoticeId } from '@graph-history/domain';
import { Principal, resourceMissing } from '@graph-history/http';
import { quote } from '../query/query-values';
import { openSseResponse } from '../streams/open-sse-response';
import { OpenStreams } from '../streams/open-streams';
import { NoticeAccessService } from './notice-access.service';
import { NoticeFanOut } from './notice-fan-out';
import { NoticeReader } from './notice-reader';
import { NoticeStream } from './notice-stream';
import { NoticeStreamQuery } from './notice-stream.query';

/**
 * GET /notices/stream: checks the key and the filters (errors answer as any request's), then
 * answers with Server-Sent Events: the account's notices the key may see after the position
 * (Last-Event-ID or `starting_after`, a notice id of the account; without either, from now),
 * then live ones.
 */
@Injectable()
export class NoticeStreamService {
  constructor(
    private readonly access: NoticeAccessService,
    private readonly reader: NoticeReader,
    private readonly openStreams: OpenStreams,
    private readonly fanOut: NoticeFanOut,
  ) {}

  async open(principal: Principal, query: NoticeStreamQuery, reply: FastifyReply): Promise<void> {
    const filter = await this.access.filterOf(principal, query);
    const start =
      query.startingAfter === undefined
        ? await this.reader.newest(principal.accountId)
        : position(principal.accountId, query.startingAfter);
    const release = this.openStreams.admit(principal.accountId, 'notices');
    const res = openSseResponse(reply);
    const stream = new NoticeStream(res, principal, filter, start);
    res.once('close', () => {
      stream.end();
      release();
    });
    const feed = this.fanOut.add(stream);
    void this.fanOut.catchUp(feed, stream);
  }
}

/** The number a resume position names: a notice id of the account (kept or trimmed since). */
function position(accountId: number, id: string): number {
  const d = decodeNoticeId(id);
  if (!d || d.accountId !== accountId)
    throw resourceMissing('starting_after', `No such notice: ${quote(id)}.`);
  return d.noticeNo;
}
