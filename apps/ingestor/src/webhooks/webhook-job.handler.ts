import { Injectable } from '@nestjs/common';
import { WebhookDeliveryRepository } from '@graph-history/db';
import { WebhookPump } from './webhook-pump';

/** Notices dispatched per statement; a job goes on until none is left. */
const DISPATCH_BATCH = 500;

/**
 * Body of the `webhooks` job (kicked after every apply commit and every sweep): turn every new
 * notice into its deliveries, then start sending what is due.
 */
@Injectable()
export class WebhookJobHandler {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly pump: WebhookPump,
  ) {}

  async handle(): Promise<number> {
    let made = 0;
    for (;;) {
      const { notices, deliveries } = await this.deliveries.dispatch(DISPATCH_BATCH, Date.now());
      made += deliveries;
      if (notices < DISPATCH_BATCH) break;
    }
    await this.pump.pump();
    return made;
  }
}
