import type { ServerResponse } from 'node:http';
import { noticeId } from '@graph-history/domain';
import type { NoticeFilter } from '@graph-history/db';
import type { Principal } from '@graph-history/http';
import { SseStream } from '../streams/sse-stream';

/** A notice as the streams hand it over: its number, what filters test, its JSON. */
export interface StreamedNotice {
  noticeNo: number;
  id: string;
  type: string;
  graphKey: string;
  body: string;
}

/**
 * One open notice stream: Server-Sent Events on the response, each notice of its filter once and
 * in order. `seq` is the account's notice number through which it has looked (sent or not).
 */
export class NoticeStream extends SseStream {
  constructor(
    res: ServerResponse,
    readonly principal: Principal,
    readonly filter: NoticeFilter,
    public seq: number,
  ) {
    super(res);
  }

  get accountId(): number {
    return this.filter.accountId;
  }

  /** Sends the notices after its position that its filter wants; its position moves past all. */
  offer(notices: StreamedNotice[], through = 0): void {
    let text = '';
    for (const n of notices) {
      if (n.noticeNo <= this.seq) continue;
      if (this.wants(n)) text += `id: ${n.id}\nevent: message\ndata: ${n.body}\n\n`;
      this.seq = n.noticeNo;
    }
    if (through > this.seq) this.seq = through;
    if (text) this.write(text);
  }

  /**
   * The stream's position is older than the account's kept notices (`oldest`, `newest` their
   * numbers): notices after it may have been trimmed. One `gap` message says so; the stream goes
   * on from the oldest kept notice.
   */
  gap(oldest: number, newest: number): void {
    const data = {
      object: 'gap',
      code: 'outside_retention_window',
      message: `Notices after ${noticeId(this.accountId, this.seq)} are no longer kept (an account keeps its newest NOTICES_KEPT); the stream goes on from the oldest kept notice.`,
      first_notice_id: noticeId(this.accountId, oldest),
      last_notice_id: noticeId(this.accountId, newest),
    };
    this.write(`event: gap\ndata: ${JSON.stringify(data)}\n\n`);
    this.seq = oldest - 1;
  }

  private wants(n: StreamedNotice): boolean {
    const f = this.filter;
    if (f.graphKeys !== null && !f.graphKeys.includes(n.graphKey)) return false;
    if (f.graphKey !== undefined && f.graphKey !== n.graphKey) return false;
    return f.types === undefined || f.types.includes(n.type);
  }
}
