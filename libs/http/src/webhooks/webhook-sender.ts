import type { Config } from '@graph-history/config';
import type {
  AttemptResult,
  ClaimedDelivery,
  RecordedAttempt,
  WebhookDeliveryRepository,
} from '@graph-history/db';
import { NOTICE_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from '@graph-history/domain';
import { postWebhook } from './post-webhook';
import { checkWebhookUrl, WebhookUrlError } from './webhook-url';

export type WebhookSettings = Pick<
  Config,
  | 'WEBHOOK_RETRY_SCHEDULE'
  | 'WEBHOOK_TIMEOUT_MS'
  | 'WEBHOOK_DISABLE_AFTER'
  | 'WEBHOOK_ALLOW_PRIVATE_URLS'
>;

export interface SentDelivery extends RecordedAttempt {
  result: AttemptResult;
}

/** How long a claimed delivery stays with its sender: its attempt's timeout and a margin. */
export const deliveryLeaseMs = (settings: Pick<Config, 'WEBHOOK_TIMEOUT_MS'>): number =>
  settings.WEBHOOK_TIMEOUT_MS + 30_000;

/**
 * Makes one attempt of a claimed delivery and records it: checks the URL again (its host may
 * resolve elsewhere now), signs the body with the endpoint's secrets at the current second, POSTs
 * it to the checked address. `onDisabled` hears of the attempt that disabled its endpoint.
 */
export class WebhookSender {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly settings: WebhookSettings,
    private readonly onDisabled: (d: ClaimedDelivery) => void,
    private readonly now: () => number = Date.now,
  ) {}

  async send(delivery: ClaimedDelivery): Promise<SentDelivery> {
    const result = await this.attempt(delivery);
    const recorded = await this.deliveries.recordAttempt(
      delivery,
      result,
      {
        retrySchedule: this.settings.WEBHOOK_RETRY_SCHEDULE,
        disableAfterMs: this.settings.WEBHOOK_DISABLE_AFTER,
      },
      this.now(),
    );
    if (recorded.disabledEndpoint) this.onDisabled(delivery);
    return { ...recorded, result };
  }

  private async attempt(d: ClaimedDelivery): Promise<AttemptResult> {
    const started = this.now();
    try {
      const target = await checkWebhookUrl(d.url, this.settings.WEBHOOK_ALLOW_PRIVATE_URLS);
      const t = Math.floor(this.now() / 1000);
      return await postWebhook(
        target,
        d.body,
        {
          [SIGNATURE_HEADER]: signatureHeader(d.body, t, d.secrets),
          [NOTICE_ID_HEADER]: d.noticeId,
        },
        this.settings.WEBHOOK_TIMEOUT_MS,
      );
    } catch (err) {
      if (!(err instanceof WebhookUrlError)) throw err;
      return {
        started,
        durationMs: this.now() - started,
        statusCode: null,
        error: `refused: ${err.message}`,
      };
    }
  }
}
