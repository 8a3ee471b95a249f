import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { Logger } from 'nestjs-pino';
import { ReplicaRouting } from '@graph-history/db';
import { addRequestIdHeader, ErrorEnvelopeFilter, fastifyOptions } from '@graph-history/http';
import { ApiModule, ApiModuleOptions } from './api.module';
import { addConditionalGet } from './http/conditional-get';
import { frameworkErrors } from './http/framework-errors';
import { refuseOtherMethods } from './http/read-only-methods';
import { ApiMetrics } from './ops/api-metrics';
import { publicBaseUrl } from './public-urls';
import { ReplicaReads } from './replicas/replica-reads';

/** The read API as a Nest application, initialised but not listening (main, tests and benches). */
export async function createApiApp(options: ApiModuleOptions): Promise<NestFastifyApplication> {
  // Over-long ids must reach the handlers (404 naming the parameter), not stop at the router.
  const docBase = publicBaseUrl(options.config);
  const adapter = new FastifyAdapter({
    ...fastifyOptions(undefined, options.config.TRUST_PROXY),
    routerOptions: { maxParamLength: 1_000 },
    frameworkErrors: frameworkErrors(docBase),
  });
  // platform-fastify types the raw request as its own alias of IncomingMessage: same object
  const fastify = adapter.getInstance() as unknown as FastifyInstance;
  refuseOtherMethods(fastify, docBase);
  addRequestIdHeader(fastify);
  addConditionalGet(fastify);
  const replicaUrls = options.config.DATABASE_REPLICA_URLS;
  const routing = replicaUrls ? new ReplicaRouting(options.db, replicaUrls) : null;
  if (routing) new ReplicaReads(routing, options.config.REPLICA_MAX_WAIT_MS).install(fastify);
  const app = await NestFactory.create<NestFastifyApplication>(
    ApiModule.forRoot({ ...options, db: routing?.db ?? options.db, keysDb: options.db }),
    adapter,
    { bufferLogs: true, abortOnError: false },
  );
  app.useLogger(app.get(Logger));
  app.useGlobalFilters(new ErrorEnvelopeFilter(docBase));
  const metrics = app.get(ApiMetrics);
  fastify.addHook('onResponse', (_req, reply, done) => {
    metrics.requests.inc({ status: String(reply.statusCode) });
    done();
  });
  await app.init();
  return app;
}
