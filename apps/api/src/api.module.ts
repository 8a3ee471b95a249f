import { DynamicModule, Module, Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule, Params } from 'nestjs-pino';
import { Config } from '@graph-history/config';
import {
  DatabaseHealthRepository,
  Db,
  EventReadRepository,
  GraphReadRepository,
  NodeItemsRepository,
  NodeReadRepository,
  NoticeRepository,
  ViewerSessionRepository,
} from '@graph-history/db';
import { CoreModule, DB, loggerParams } from '@graph-history/http';
import { MomentService } from './as-of/moment.service';
import { DocsController } from './docs/docs.controller';
import { EventListService } from './events/event-list.service';
import { EventsController } from './events/events.controller';
import { NodeExpander } from './expand/node-expander.service';
import { GraphAccessService } from './graphs/graph-access.service';
import { GraphIdCache } from './graphs/graph-id-cache.service';
import { GraphListService } from './graphs/graph-list.service';
import { GraphReadService } from './graphs/graph-read.service';
import { GraphViewService } from './graphs/graph-view.service';
import { GraphsController } from './graphs/graphs.controller';
import { HomeController } from './home/home.controller';
import { ApiAccess } from './http/api-access';
import { ReadRoutes } from './http/read-routes';
import { NodeListService } from './nodes/node-list.service';
import { NodeLookupService } from './nodes/node-lookup.service';
import { NodeReadService } from './nodes/node-read.service';
import { NodePresenter } from './nodes/node.presenter';
import { NodesController } from './nodes/nodes.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { ApiMetrics } from './ops/api-metrics';
import { HealthController } from './ops/health.controller';
import { rateLimitProviders } from './rate-limit/rate-limit.providers';
import { RequestPrincipalService } from './http/request-principal.service';
import { ViewerSessionService } from './viewer/session/viewer-session.service';
import { SignInController } from './viewer/sign-in.controller';
import { ViewerAssets } from './viewer/viewer-assets';
import { ViewerAssetsController } from './viewer/viewer-assets.controller';
import { ViewerController } from './viewer/viewer.controller';
import { ReplicaReads } from './replicas/replica-reads';
import { EventFanOut } from './streams/event-fan-out';
import { OpenStreams } from './streams/open-streams';
import { EventStreamController } from './streams/event-stream.controller';
import { EventStreamService } from './streams/event-stream.service';
import { StreamKeyCheck } from './streams/stream-key-check';
import { StreamPageReader } from './streams/stream-page-reader';
import { NoticeAccessService } from './notices/notice-access.service';
import { NoticeFanOut } from './notices/notice-fan-out';
import { NoticeListService } from './notices/notice-list.service';
import { NoticeReader } from './notices/notice-reader';
import { NoticesController } from './notices/notices.controller';
import { NoticeStreamController } from './notices/notice-stream.controller';
import { NoticeStreamService } from './notices/notice-stream.service';

export interface ApiModuleOptions {
  config: Config;
  db: Db;
  /** Where API keys are looked up, when `db` reads from replicas: the primary. Default `db`. */
  keysDb?: Db;
  /** Prefix of the API's Redis keys; default `gh:`. */
  redisKeyPrefix?: string;
  /** Where reads go when there are replicas (the event streams' reads use it too). */
  replicaReads?: ReplicaReads;
}

const repository = (cls: new (db: Db) => unknown): Provider => ({
  provide: cls,
  useFactory: (db: Db) => new cls(db),
  inject: [DB],
});

/**
 * The shared logger options; the per-request middleware (one line per request, at info) is only
 * mounted when that level is logged, since above it it would only cost time on every request.
 */
function logger(level: Config['LOG_LEVEL']): Params {
  const params = loggerParams(level, 'api');
  return ['info', 'debug', 'trace'].includes(level) ? params : { ...params, forRoutes: [] };
}

@Module({})
export class ApiModule {
  static forRoot(o: ApiModuleOptions): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        CoreModule.forRoot(o.config, o.db, o.keysDb),
        LoggerModule.forRoot(logger(o.config.LOG_LEVEL)),
        DiscoveryModule,
      ],
      controllers: [
        GraphsController,
        NodesController,
        EventsController,
        EventStreamController,
        NoticeStreamController,
        NoticesController,
        OpenApiController,
        DocsController,
        HealthController,
        ViewerController,
        HomeController,
        ViewerAssetsController,
        SignInController,
      ],
      providers: [
        ...[
          GraphReadRepository,
          EventReadRepository,
          NodeReadRepository,
          NodeItemsRepository,
          DatabaseHealthRepository,
        ].map((r) => repository(r)),
        // notices are announced as soon as they commit: read them where they were written
        {
          provide: NoticeRepository,
          useValue: new NoticeRepository(o.keysDb ?? o.db),
        },
        // sessions are written at sign-in and read at once: always the primary, like keys
        {
          provide: ViewerSessionRepository,
          useValue: new ViewerSessionRepository(o.keysDb ?? o.db),
        },
        { provide: ApiMetrics, useValue: new ApiMetrics() },
        ...rateLimitProviders(o.redisKeyPrefix ?? `${o.config.QUEUE_PREFIX}:`),
        ApiAccess,
        ReadRoutes,
        MomentService,
        GraphAccessService,
        GraphIdCache,
        GraphViewService,
        GraphReadService,
        GraphListService,
        NodeLookupService,
        NodePresenter,
        NodeExpander,
        NodeReadService,
        NodeListService,
        EventListService,
        { provide: ReplicaReads, useValue: o.replicaReads ?? null },
        StreamPageReader,
        StreamKeyCheck,
        OpenStreams,
        EventFanOut,
        EventStreamService,
        NoticeAccessService,
        NoticeListService,
        NoticeReader,
        NoticeFanOut,
        NoticeStreamService,
        ViewerSessionService,
        RequestPrincipalService,
        ViewerAssets,
      ],
    };
  }
}
