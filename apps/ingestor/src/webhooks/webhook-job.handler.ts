import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { WebhookDeliveryRepository } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';
import { WebhookPump } from './webhook-pump';

/** Notices dispatched per statement; a job goes on until none is left. */
const DISPATCH_BATCH = 500;
/** Old deliveries are deleted at most this often per process, this many at a time. */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 10_000;

/**
 * Body of the `webhooks` job (kicked after every apply commit and every sweep): turn every new
 * notice into its deliveries, then start sending what is due; once a minute, delete deliveries
 * that finished more than WEBHOOK_HISTORY ago.
 */
@Injectable()
export class WebhookJobHandler {
  private lastPrune = 0;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly pump: WebhookPump,
    @Inject(CONFIG) private readonly config: Pick<Config, 'WEBHOOK_HISTORY'>,
  ) {}

  async handle(): Promise<number> {
    let made = 0;
    for (;;) {
      const { notices, deliveries } = await this.deliveries.dispatch(DISPATCH_BATCH, Date.now());
      made += deliveries;
      if (notices < DISPATCH_BATCH) break;
    }
    await this.pump.pump();
    const now = Date.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.deliveries.deleteFinished(now - this.config.WEBHOOK_HISTORY, PRUNE_BATCH);
    }
    return made;
  }
}
