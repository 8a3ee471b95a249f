import { Inject, Injectable } from '@nestjs/common';
import { Config, publicBaseUrl } from '@graph-history/config';
import {
  AppliedEvent,
  noticeJson,
  NoticeParts,
  noticesOf,
  QUARANTINE_REASON_MAX,
} from '@graph-history/domain';
import { ApplyHead, ApplyStall, Db, NoticeInsert, NoticeRepository } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';

export type NoticeRow = NoticeInsert;

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

  /** The rows of the notices `applied` makes, numbered on `conn` (no numbers when none). */
  async rowsOf(conn: Db, graphId: number, head: ApplyHead, applied: AppliedEvent[]) {
    const made = applied.flatMap((a) =>
      noticesOf(a).map((n) => ({ ...n, seq: a.event.seq, created: a.event.created })),
    );
    const numbers = await this.notices.in(conn).reserveNumbers(made.length);
    return made.map((n, i) =>
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
  }

  /** The graph.quarantined notice of a stall at the event of idempotency key `eventKey`. */
  async quarantineRow(
    conn: Db,
    graphId: number,
    head: ApplyHead,
    stall: ApplyStall,
    eventKey: string | null,
  ): Promise<NoticeRow> {
    const [noticeNo] = await this.notices.in(conn).reserveNumbers(1);
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

  private row(p: NoticeParts): NoticeRow {
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
