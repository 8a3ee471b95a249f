import { Inject, Injectable } from '@nestjs/common';
import { Config, publicBaseUrl } from '@graph-history/config';
import {
  AppliedEvent,
  noticeJson,
  NoticeParts,
  NodeNotice,
  noticesOf,
  QUARANTINE_REASON_MAX,
} from '@graph-history/domain';
import { ApplyHead, ApplyStall, Db, NoticeInsert, NoticeRepository } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';

/** A notice an applied event made, before it is numbered. */
export type MadeNotice = NodeNotice & { seq: number; created: number };

/**
 * Turns what a run of applied events made (noticesOf, pure) into notice rows for the apply's own
 * commit, each with its public JSON sealed once (id, viewer link as of the event).
 */
@Injectable()
export class NoticeMaker {
  private readonly viewerBase: string;

  constructor(
    private readonly notices: NoticeRepository,
    @Inject(CONFIG) config: Pick<Config, 'PUBLIC_URL' | 'PORT'>,
  ) {
    this.viewerBase = publicBaseUrl(config);
  }

  /** The notices `applied` makes (pure), each with its event. */
  made(applied: AppliedEvent[]): MadeNotice[] {
    return applied.flatMap((a) =>
      noticesOf(a).map((n) => ({ ...n, seq: a.event.seq, created: a.event.created })),
    );
  }

  /**
   * Numbers and writes `made` in `trx`, the transaction of the apply that made them, last before
   * its commit: the account's notice lock (see reserveNumbers) is held only from here to the commit.
   * Returns the newest notice's number.
   */
  async write(trx: Db, graphId: number, head: ApplyHead, made: MadeNotice[]): Promise<number> {
    const numbers = await this.notices.in(trx).reserveNumbers(head.accountId, made.length);
    const rows = made.map((n, i) =>
      this.row({
        accountId: head.accountId,
        noticeNo: numbers[i]!,
        type: n.type,
        created: n.created,
        graphId,
        graphKey: head.graphKey,
        nodeNo: n.nodeNo,
        seq: n.seq,
        data: n.data,
      }),
    );
    await this.notices.in(trx).insert(rows);
    return numbers[numbers.length - 1]!;
  }

  /** The graph.quarantined notice of a stall at the event of idempotency key `eventKey`. */
  async quarantineRow(
    trx: Db,
    graphId: number,
    head: ApplyHead,
    stall: ApplyStall,
    eventKey: string | null,
  ): Promise<NoticeInsert> {
    const [noticeNo] = await this.notices.in(trx).reserveNumbers(head.accountId, 1);
    return this.row({
      accountId: head.accountId,
      noticeNo: noticeNo!,
      type: 'graph.quarantined',
      created: stall.at,
      graphId,
      graphKey: head.graphKey,
      nodeNo: null,
      seq: null,
      data: { event_key: eventKey, reason: stall.error.slice(0, QUARANTINE_REASON_MAX) },
    });
  }

  private row(p: NoticeParts): NoticeInsert {
    return {
      account_id: p.accountId,
      notice_no: p.noticeNo,
      graph_id: p.graphId,
      node_no: p.nodeNo,
      seq: p.seq,
      type: p.type,
      created: p.created,
      body: noticeJson(this.viewerBase, p),
    };
  }
}
