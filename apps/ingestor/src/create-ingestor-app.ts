import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { Config, publicBaseUrl } from '@graph-history/config';
import { Db } from '@graph-history/db';
import {
  addRequestIdHeader,
  answerOversizedBodiesAfterDraining,
  ErrorEnvelopeFilter,
  fastifyOptions,
} from '@graph-history/http';
import { refuseOtherMethodsOnEvents } from './ingest/events-route';
import { MAX_BODY_BYTES } from './ingest/ingest-limits';
import { IngestorModule } from './ingestor.module';

export interface CreateIngestorAppOptions {
  config: Config;
  /** Owned by the caller, who destroys it after `app.close()`. */
  db: Db;
  runWorkers: boolean;
}

/** The ingestor as a NestJS app on Fastify, initialised but not listening. */
export async function createIngestorApp({
  config,
  db,
  runWorkers,
}: CreateIngestorAppOptions): Promise<NestFastifyApplication> {
  // A graph_key longer than Fastify's default 100-character limit must still reach the handler's 400.
  const adapter = new FastifyAdapter({
    ...fastifyOptions(MAX_BODY_BYTES, config.TRUST_PROXY),
    routerOptions: { maxParamLength: 1_000 },
  });
  addRequestIdHeader(adapter.getInstance());
  answerOversizedBodiesAfterDraining(adapter.getInstance(), MAX_BODY_BYTES, publicBaseUrl(config));
  refuseOtherMethodsOnEvents(adapter.getInstance(), publicBaseUrl(config));
  const app = await NestFactory.create<NestFastifyApplication>(
    IngestorModule.register({ config, db, runWorkers }),
    adapter,
    {
      bufferLogs: true,
      abortOnError: false,
    },
  );
  app.useLogger(app.get(Logger));
  app.useGlobalFilters(new ErrorEnvelopeFilter(publicBaseUrl(config)));
  await app.init();
  return app;
}
