import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { RedisClient } from '@graph-history/http';
import { LocalApplier } from './apply/local-applier';
import { JobQueues } from './jobs/job-queues';
import { JobWorkers } from './jobs/job-workers';
import { WebhookPump } from './webhooks/webhook-pump';
import { Sweeper } from './jobs/sweeper';
import { INGESTOR_OPTIONS, IngestorOptions, PRODUCER_REDIS, WORKER_REDIS } from './tokens';

/**
 * Starts the background side after boot and stops everything in order on shutdown, which Nest
 * runs after the HTTP server drained its in-flight requests: sweeper, in-process applies, then workers (waiting for
 * their active jobs), webhook attempts in flight, then queues and Redis connections. The Db belongs to whoever created it.
 */
@Injectable()
export class IngestorRuntime implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(INGESTOR_OPTIONS) private readonly options: IngestorOptions,
    private readonly sweeper: Sweeper,
    private readonly workers: JobWorkers,
    private readonly queues: JobQueues,
    private readonly local: LocalApplier,
    private readonly webhooks: WebhookPump,
    @Inject(PRODUCER_REDIS) private readonly producerRedis: RedisClient,
    @Inject(WORKER_REDIS) private readonly workerRedis: RedisClient,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.runWorkers) return;
    this.workers.start();
    this.sweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
    await this.local.drain();
    await this.workers.close();
    await this.webhooks.drain();
    await this.queues.close();
    this.producerRedis.disconnect();
    this.workerRedis.disconnect();
  }
}
