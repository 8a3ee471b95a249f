import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { Config } from '@graph-history/config';
import {
  DatabaseHealthRepository,
  Db,
  HookKeyRepository,
  WebhookDeliveryRepository,
} from '@graph-history/db';
import {
  ApiKeyGuard,
  bruteForceGuardProviders,
  CONFIG,
  CoreModule,
  loggerParams,
  repositoryProvider,
  slotPrefix,
} from '@graph-history/http';
import { ApplyJobHandler } from './apply/apply-job.handler';
import { AppliedEventsPublisher } from './apply/applied-events-publisher';
import { LocalApplier } from './apply/local-applier';
import { IngestPipelineModule } from './ingest-pipeline.module';
import { ClaudeCodeHooksController } from './hooks/claude-code-hooks.controller';
import { ClaudeCodeHooksService } from './hooks/claude-code-hooks.service';
import { IngestController } from './ingest/ingest.controller';
import { IngestService } from './ingest/ingest.service';
import { IngestorRuntime } from './ingestor-runtime';
import { ApplyRequests } from './jobs/apply-requests';
import { JobQueues } from './jobs/job-queues';
import { JobWorkers } from './jobs/job-workers';
import { createRedis } from './jobs/redis-connection';
import { Sweeper } from './jobs/sweeper';
import { HealthController } from './ops/health.controller';
import { ingestRateLimitProviders } from './rate-limit/ingest-rate-limit.providers';
import { IngestorMetrics } from './ops/ingestor-metrics';
import { MetricsController } from './ops/metrics.controller';
import { ReadinessService } from './ops/readiness.service';
import { INGESTOR_OPTIONS, IngestorOptions, PRODUCER_REDIS, WORKER_REDIS } from './tokens';
import { TrimJobHandler } from './trim/trim-job.handler';
import { WebhookJobHandler } from './webhooks/webhook-job.handler';
import { WebhookKicks } from './webhooks/webhook-kicks';
import { WebhookPump } from './webhooks/webhook-pump';

export interface IngestorModuleOptions extends IngestorOptions {
  config: Config;
  db: Db;
}

@Module({})
export class IngestorModule {
  static register({ config, db, ...options }: IngestorModuleOptions): DynamicModule {
    return {
      module: IngestorModule,
      imports: [
        CoreModule.forRoot(config, db),
        LoggerModule.forRoot(loggerParams(config.LOG_LEVEL, 'ingestor')),
        IngestPipelineModule,
      ],
      controllers: [
        IngestController,
        ClaudeCodeHooksController,
        HealthController,
        MetricsController,
      ],
      providers: [
        { provide: INGESTOR_OPTIONS, useValue: options },
        ...bruteForceGuardProviders(`${config.QUEUE_PREFIX}:rl:authfail`),
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: IngestorMetrics, useFactory: () => new IngestorMetrics() },
        ...ingestRateLimitProviders(`${config.QUEUE_PREFIX}:`),
        {
          provide: PRODUCER_REDIS,
          useFactory: (c: Config) => createRedis(c, 'producer'),
          inject: [CONFIG],
        },
        {
          provide: WORKER_REDIS,
          useFactory: (c: Config) => createRedis(c, 'worker'),
          inject: [CONFIG],
        },
        {
          provide: JobQueues,
          useFactory: (redis: ReturnType<typeof createRedis>, c: Config) =>
            new JobQueues(redis, slotPrefix(c, c.QUEUE_PREFIX), c.APPLY_PROCESSES),
          inject: [PRODUCER_REDIS, CONFIG],
        },
        repositoryProvider(DatabaseHealthRepository),
        repositoryProvider(HookKeyRepository),
        repositoryProvider(WebhookDeliveryRepository),
        WebhookPump,
        WebhookJobHandler,
        WebhookKicks,
        IngestService,
        ClaudeCodeHooksService,
        ApplyJobHandler,
        AppliedEventsPublisher,
        LocalApplier,
        ApplyRequests,
        TrimJobHandler,
        JobWorkers,
        Sweeper,
        ReadinessService,
        IngestorRuntime,
      ],
    };
  }
}
