import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { Config, publicBaseUrl } from '@graph-history/config';
import { Db } from '@graph-history/db';
import type { FastifyInstance } from 'fastify';
import {
  answerOversizedBodiesAfterDraining,
  ErrorEnvelopeFilter,
  fastifySetup,
} from '@graph-history/http';
import { CLAUDE_CODE_HOOKS_PATH } from './hooks/claude-code-hooks-route';
import { acceptOnlyJsonBodies } from './ingest/json-bodies';
import { refuseOtherMethodsOnEvents } from './ingest/events-route';
import { MAX_BODY_BYTES } from './ingest/ingest-limits';
import { IngestorModule } from './ingestor.module';
import { holdRecentlyLimited } from './rate-limit/early-refusal';
import { IngestRateLimit } from './rate-limit/ingest-rate-limit';
import { IngestorOptions } from './tokens';

export interface CreateIngestorAppOptions extends IngestorOptions {
  config: Config;
  /** Owned by the caller, who destroys it after `app.close()`. */
  db: Db;
}

/** The ingestor as a NestJS app on Fastify, initialised but not listening. */
export async function createIngestorApp({
  config,
  db,
  ...options
}: CreateIngestorAppOptions): Promise<NestFastifyApplication> {
  const docBase = publicBaseUrl(config);
  const http = fastifySetup({
    docBase,
    bodyLimit: MAX_BODY_BYTES,
    config,
  });
  const adapter = new FastifyAdapter(http.adapterOptions);
  const fastify = adapter.getInstance() as unknown as FastifyInstance;
  http.install(fastify);
  acceptOnlyJsonBodies(fastify);
  answerOversizedBodiesAfterDraining(fastify, MAX_BODY_BYTES, docBase);
  refuseOtherMethodsOnEvents(fastify, docBase);
  refuseOtherMethodsOnEvents(fastify, docBase, CLAUDE_CODE_HOOKS_PATH, 'Claude Code hooks');
  const app = await NestFactory.create<NestFastifyApplication>(
    IngestorModule.register({ config, db, ...options }),
    adapter,
    // no Nest body parsers: Fastify's own JSON parser is the only one (see acceptOnlyJsonBodies)
    { bufferLogs: true, abortOnError: false, bodyParser: false },
  );
  app.useLogger(app.get(Logger));
  holdRecentlyLimited(fastify, app.get(IngestRateLimit), docBase);
  app.useGlobalFilters(new ErrorEnvelopeFilter(docBase));
  await app.init();
  return app;
}
