import { Injectable, Logger } from '@nestjs/common';
import { isConnectionError } from '@graph-history/db';
import { JobQueues } from '../jobs/job-queues';
import { WebhookJobHandler } from './webhook-job.handler';

/**
 * Asks for a `webhooks` job, at most once per event-loop turn of this process. While Redis is
 * away the job runs in this process instead (safe beside others: see WebhookDeliveryRepository).
 */
@Injectable()
export class WebhookKicks {
  private readonly logger = new Logger(WebhookKicks.name);
  private pending: Promise<void> | undefined;

  constructor(
    private readonly queues: JobQueues,
    private readonly handler: WebhookJobHandler,
  ) {}

  kick(): Promise<void> {
    this.pending ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        this.pending = undefined;
        return this.queues.enqueueWebhooks();
      })
      .catch(() => this.handler.handle().then(() => undefined))
      .catch((err: unknown) => {
        if (!isConnectionError(err)) this.logger.warn({ err }, 'webhook dispatch failed');
      });
    return this.pending;
  }
}
