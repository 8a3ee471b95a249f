import { Inject, Injectable, Logger } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { ClaimedDelivery, isConnectionError, WebhookDeliveryRepository } from '@graph-history/db';
import { CONFIG, deliveryLeaseMs, WebhookSender } from '@graph-history/http';

/**
 * Sends the due webhook deliveries, at most WEBHOOK_CONCURRENCY at a time in this process. Each
 * is leased (claimDue) while its attempt runs, so no other process sends it meanwhile; a lease
 * left by a process that died runs out and the delivery is taken again. When a claim filled every
 * free slot, each finished attempt pumps again.
 */
@Injectable()
export class WebhookPump {
  private readonly logger = new Logger(WebhookPump.name);
  private readonly sender: WebhookSender;
  private inFlight = 0;
  private closed = false;
  /** Claims and attempts under way (drain waits for them). */
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.sender = new WebhookSender(deliveries, config, (d) => this.logDisabled(d));
  }

  /** Claims as many due deliveries as there are free slots and starts sending them. */
  async pump(): Promise<number> {
    const free = this.config.WEBHOOK_CONCURRENCY - this.inFlight;
    if (free <= 0 || this.closed) return 0;
    this.inFlight += free;
    let claimed: ClaimedDelivery[] = [];
    const claiming = this.deliveries.claimDue(free, Date.now(), deliveryLeaseMs(this.config));
    const settled = claiming.then(
      () => undefined,
      () => undefined,
    );
    this.sending.add(settled);
    try {
      claimed = await claiming;
    } finally {
      this.sending.delete(settled);
      this.inFlight -= free - claimed.length;
    }
    const full = claimed.length === free;
    for (const d of claimed) {
      const sent: Promise<void> = this.sender
        .send(d)
        .then(
          () => undefined,
          (err: unknown) => {
            // its lease runs out and the delivery is tried again
            if (!isConnectionError(err))
              this.logger.warn({ err, deliveryId: d.deliveryId }, 'webhook attempt not recorded');
          },
        )
        .finally(() => {
          this.inFlight--;
          this.sending.delete(sent);
          if (full) void this.pump().catch(() => undefined);
        });
      this.sending.add(sent);
    }
    return claimed.length;
  }

  /** Takes no more deliveries and waits for the attempts in flight (shutdown). */
  async drain(): Promise<void> {
    this.closed = true;
    while (this.sending.size > 0) await Promise.all([...this.sending]);
  }

  private logDisabled(d: ClaimedDelivery): void {
    this.logger.warn(
      { endpointId: d.endpointId, accountId: d.accountId, url: d.url },
      `webhook endpoint ${d.endpointId} disabled: every attempt failed for ${this.config.WEBHOOK_DISABLE_AFTER / 1000} s; \`graph-history webhooks enable ${d.endpointId}\` turns it back on`,
    );
  }
}
