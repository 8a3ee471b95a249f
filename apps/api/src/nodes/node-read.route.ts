import { Injectable, OnModuleInit } from '@nestjs/common';
import { DirectReadRoutes } from '../http/direct-read-routes';
import { JSON_CONTENT_TYPE } from '../lists/list-json';
import { readNodeReadQuery } from './node-read.query';
import { NodeReadService } from './node-read.service';

/** GET /api/v1/graphs/{graph_id}/nodes/{node_id}, a direct read route (see DirectReadRoutes). */
@Injectable()
export class NodeReadRoute implements OnModuleInit {
  constructor(
    private readonly routes: DirectReadRoutes,
    private readonly nodeRead: NodeReadService,
  ) {}

  onModuleInit(): void {
    // a node without expansions comes as JSON text: Fastify sends it as it is
    this.routes.get(
      '/api/v1/graphs/:graph_id/nodes/:node_id',
      (r) =>
        this.nodeRead.retrieve(
          r.principal,
          r.params.graph_id!,
          r.params.node_id!,
          readNodeReadQuery(r.query),
          r.maxBytes,
        ),
      JSON_CONTENT_TYPE,
    );
  }
}
