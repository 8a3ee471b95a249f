import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { CONFIG, rateLimited } from '@graph-history/http';
import { ApiMetrics } from '../ops/api-metrics';

export type StreamKind = 'events' | 'notices';

/** How long a client refused for too many open streams is asked to wait (seconds). */
const RETRY_AFTER_S = 5;

/**
 * The open streams of this process, counted per account and in all, events and notices alike
 * (each holds a socket): past STREAM_MAX_PER_ACCOUNT of one account or STREAM_MAX_PER_PROCESS in
 * all, a new stream is refused with 429 `rate_limit`, so that one account cannot hold every socket.
 */
@Injectable()
export class OpenStreams {
  private readonly byAccount = new Map<number, number>();
  private total = 0;

  constructor(
    @Inject(CONFIG)
    private readonly config: Pick<Config, 'STREAM_MAX_PER_ACCOUNT' | 'STREAM_MAX_PER_PROCESS'>,
    private readonly metrics: ApiMetrics,
  ) {}

  /** Counts a new stream of the account; the function returned uncounts it (once). */
  admit(accountId: number, kind: StreamKind): () => void {
    const mine = this.byAccount.get(accountId) ?? 0;
    if (mine >= this.config.STREAM_MAX_PER_ACCOUNT) {
      this.metrics.rateLimited.inc({ reason: 'streams_per_account' });
      throw rateLimited(
        RETRY_AFTER_S,
        {},
        `Too many open streams for this account (${this.config.STREAM_MAX_PER_ACCOUNT}); close one`,
      );
    }
    if (this.total >= this.config.STREAM_MAX_PER_PROCESS) {
      this.metrics.rateLimited.inc({ reason: 'streams_per_process' });
      throw rateLimited(RETRY_AFTER_S, {}, 'Too many open streams on this server');
    }
    this.byAccount.set(accountId, mine + 1);
    this.total++;
    this.metrics.openStreams.inc({ kind });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.byAccount.get(accountId) ?? 1) - 1;
      if (n <= 0) this.byAccount.delete(accountId);
      else this.byAccount.set(accountId, n);
      this.total--;
      this.metrics.openStreams.dec({ kind });
    };
  }
}
