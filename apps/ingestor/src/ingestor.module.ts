import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { Config } from '@graph-history/config';
import { DatabaseHealthRepository, Db, PendingWorkRepository } from '@graph-history/db';
import { ApiKeyGuard, CONFIG, CoreModule, DB, loggerParams, slotPrefix } from '@graph-history/http';
import { ApplyJobHandler } from './apply/apply-job.handler';
import { GraphApplier } from './apply/graph-applier';
import { EventStore } from './ingest/event-store';
import { IngestController } from './ingest/ingest.controller';
import { IngestService } from './ingest/ingest.service';
import { IngestorRuntime } from './ingestor-runtime';
import { JobQueues } from './jobs/job-queues';
import { JobWorkers } from './jobs/job-workers';
import { createRedis } from './jobs/redis-connection';
import { Sweeper } from './jobs/sweeper';
import { HealthController } from './ops/health.controller';
import { IngestorMetrics } from './ops/ingestor-metrics';
import { MetricsController } from './ops/metrics.controller';
import { ReadinessService } from './ops/readiness.service';
import { INGESTOR_OPTIONS, IngestorOptions, PRODUCER_REDIS, WORKER_REDIS } from './tokens';
import { TrimJobHandler } from './trim/trim-job.handler';
import { Trimmer } from './trim/trimmer';

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
      ],
      controllers: [IngestController, HealthController, MetricsController],
      providers: [
        { provide: INGESTOR_OPTIONS, useValue: options },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: IngestorMetrics, useFactory: () => new IngestorMetrics() },
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
            new JobQueues(redis, slotPrefix(c, c.QUEUE_PREFIX)),
          inject: [PRODUCER_REDIS, CONFIG],
        },
        { provide: EventStore, useFactory: (d: Db) => new EventStore(d), inject: [DB] },
        { provide: GraphApplier, useFactory: (d: Db) => new GraphApplier(d), inject: [DB] },
        { provide: Trimmer, useFactory: (d: Db) => new Trimmer(d), inject: [DB] },
        {
          provide: PendingWorkRepository,
          useFactory: (d: Db) => new PendingWorkRepository(d),
          inject: [DB],
        },
        {
          provide: DatabaseHealthRepository,
          useFactory: (d: Db) => new DatabaseHealthRepository(d),
          inject: [DB],
        },
        IngestService,
        ApplyJobHandler,
        TrimJobHandler,
        JobWorkers,
        Sweeper,
        ReadinessService,
        IngestorRuntime,
      ],
    };
  }
}
