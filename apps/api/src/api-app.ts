import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { Logger } from 'nestjs-pino';
import { PooledDb, ReplicaRouting } from '@graph-history/db';
import { ErrorEnvelopeFilter, fastifySetup } from '@graph-history/http';
import { ApiModule, ApiModuleOptions } from './api.module';
import { refuseOtherMethods } from './http/read-only-methods';
import { addResponseHook } from './http/response-hook';
import { ApiMetrics } from './ops/api-metrics';
import { publicBaseUrl } from './public-urls';
import { FairShare } from './rate-limit/fair-share';
import { VIEWER_FORM_PATHS } from './viewer/viewer-form-paths';
import { ReplicaReads } from './replicas/replica-reads';

/** The read API as a Nest application, initialised but not listening (main, tests and benches). */
export async function createApiApp(
  options: ApiModuleOptions & { db: PooledDb },
): Promise<NestFastifyApplication> {
  const docBase = publicBaseUrl(options.config);
  const http = fastifySetup({ docBase, config: options.config });
  const adapter = new FastifyAdapter(http.adapterOptions);
  // platform-fastify types the raw request as its own alias of IncomingMessage: same object
  const fastify = adapter.getInstance() as unknown as FastifyInstance;
  http.install(fastify, { responseHeadersHook: false });
  refuseOtherMethods(fastify, docBase, VIEWER_FORM_PATHS);
  const ready: { fairShare?: FairShare } = {};
  addResponseHook(fastify, () => ready.fairShare);
  const replicaUrls = options.config.DATABASE_REPLICA_URLS;
  const routing = replicaUrls ? new ReplicaRouting(options.db, replicaUrls) : null;
  const replicaReads = routing
    ? new ReplicaReads(routing, options.config.REPLICA_MAX_WAIT_MS)
    : undefined;
  replicaReads?.install(fastify);
  const app = await NestFactory.create<NestFastifyApplication>(
    ApiModule.forRoot({
      ...options,
      db: routing?.db ?? options.db,
      keysDb: options.db,
      replicaReads,
    }),
    adapter,
    { bufferLogs: true, abortOnError: false },
  );
  app.useLogger(app.get(Logger));
  app.useGlobalFilters(new ErrorEnvelopeFilter(docBase));
  ready.fairShare = app.get(FairShare);
  const metrics = app.get(ApiMetrics);
  fastify.addHook('onResponse', (_req, reply, done) => {
    metrics.answered(reply.statusCode);
    done();
  });
  await app.init();
  return app;
}
