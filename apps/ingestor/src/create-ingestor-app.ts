import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { Config } from '@graph-history/config';
import { Db } from '@graph-history/db';
import { addRequestIdHeader, ErrorEnvelopeFilter, fastifyOptions } from '@graph-history/http';
import { MAX_BODY_BYTES } from './ingest/ingest-limits';
import { IngestorModule } from './ingestor.module';
import { FastifyBodyErrorsFilter } from './ops/fastify-body-errors.filter';

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
    ...fastifyOptions(MAX_BODY_BYTES),
    routerOptions: { maxParamLength: 1_000 },
  });
  addRequestIdHeader(adapter.getInstance());
  const app = await NestFactory.create<NestFastifyApplication>(
    IngestorModule.register({ config, db, runWorkers }),
    adapter,
    {
      bufferLogs: true,
      abortOnError: false,
    },
  );
  app.useLogger(app.get(Logger));
  const envelope = new ErrorEnvelopeFilter(config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`);
  app.useGlobalFilters(new FastifyBodyErrorsFilter(envelope));
  await app.init();
  return app;
}
