import { Controller, Get, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Principal } from '@graph-history/http';
import { GraphAccessService } from '../graphs/graph-access.service';
import { RequestPrincipalService } from '../http/request-principal.service';
import { QueryParams } from '../query/query-params';
import { RawQuery } from '../query/raw-query.decorator';
import { ViewerAssets } from './viewer-assets';
import { ViewerErrorFilter } from './viewer-error.filter';
import { appShell, VIEWER_HEADERS } from './viewer-shell';

/** Query parameters of a share page: the moment shown and the node selected (deep links). */
const SHARE_PARAMS = ['as_of', 'node'];

/**
 * The viewer: `/graphs` (the account's shares) and the graph `url`, `/graphs/{graph_id}`. Both
 * answer the app, which reads the API with the browser's session; a browser without one is sent
 * to sign in.
 */
@Controller('graphs')
@UseFilters(ViewerErrorFilter)
export class ViewerController {
  constructor(
    private readonly principals: RequestPrincipalService,
    private readonly access: GraphAccessService,
    private readonly assets: ViewerAssets,
  ) {}

  @Get()
  async index(
    @Req() req: FastifyRequest,
    @RawQuery() q: QueryParams,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    q.allowOnly([]);
    const principal = await this.principals.forPage(req);
    this.send(req, reply, principal);
  }

  @Get(':graph_id')
  async share(
    @Req() req: FastifyRequest,
    @Param('graph_id') graphId: string,
    @RawQuery() q: QueryParams,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    q.allowOnly(SHARE_PARAMS);
    const principal = await this.principals.forPage(req);
    // another account's graph is missing, exactly like none
    if (principal) await this.access.find(principal, graphId);
    this.send(req, reply, principal);
  }

  private send(req: FastifyRequest, reply: FastifyReply, principal: Principal | null): void {
    if (!principal) {
      const next = encodeURIComponent(req.url);
      reply.status(303).header('Location', `/sign-in?next=${next}`).send();
      return;
    }
    reply.status(200).headers(VIEWER_HEADERS).send(appShell(this.assets.base));
  }
}
