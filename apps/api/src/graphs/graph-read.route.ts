import { Injectable, OnModuleInit } from '@nestjs/common';
import { readAsOf } from '../as-of/as-of';
import { DirectReadRoutes } from '../http/direct-read-routes';
import { GraphReadService } from './graph-read.service';

/** GET /api/v1/graphs/{graph_id}, a direct read route (see DirectReadRoutes). */
@Injectable()
export class GraphReadRoute implements OnModuleInit {
  constructor(
    private readonly routes: DirectReadRoutes,
    private readonly graphRead: GraphReadService,
  ) {}

  onModuleInit(): void {
    this.routes.get('/api/v1/graphs/:graph_id', (r) =>
      this.graphRead.retrieve(
        r.principal,
        r.params.graph_id!,
        readAsOf(r.query.allowOnly(['as_of'])),
      ),
    );
  }
}
