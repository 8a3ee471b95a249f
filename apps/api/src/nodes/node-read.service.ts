import { Injectable } from '@nestjs/common';
import { decodeId, graphKeyFromId } from '@graph-history/domain';
import { NodeReadRepository } from '@graph-history/db';
import { Principal } from '@graph-history/http';
import { AsOf } from '../as-of/as-of';
import { MomentService } from '../as-of/moment.service';
import { NodeExpander } from '../expand/node-expander.service';
import { nodeSlot } from '../expand/node-slot';
import { GraphAccessService } from '../graphs/graph-access.service';
import { NodeLookupService } from './node-lookup.service';
import { NodePresenter } from './node.presenter';
import { NodeReadQuery } from './node-read.query';

/** GET /graphs/{graph_id}/nodes/{node_id} (read-api.md 4.3). */
@Injectable()
export class NodeReadService {
  constructor(
    private readonly access: GraphAccessService,
    private readonly moments: MomentService,
    private readonly lookup: NodeLookupService,
    private readonly nodes: NodeReadRepository,
    private readonly expander: NodeExpander,
    private readonly presenter: NodePresenter,
  ) {}

  async retrieve(
    principal: Principal,
    graphId: string,
    nodeId: string,
    query: NodeReadQuery,
  ): Promise<Record<string, unknown>> {
    const { graph, moment, rec } = await this.read(
      principal,
      graphId,
      nodeId,
      query.asOf,
      Date.now(),
    );
    const slot = nodeSlot(rec, moment, query.expand.tree ?? undefined);
    await this.expander.expand(graph, [slot], query.expand.descendantsMaxDepth);
    return this.presenter.present(graph, slot);
  }

  /** Graph, moment and node; as of now or an event id, in one query when the node exists. */
  private async read(
    principal: Principal,
    graphId: string,
    nodeId: string,
    asOf: AsOf,
    now: number,
  ) {
    const key = graphKeyFromId(graphId);
    const decoded = decodeId('node', nodeId);
    if (asOf.kind === 'time' || key === null || decoded === null) {
      const graph = await this.access.find(principal, graphId);
      const moment = await this.moments.resolve(graph, asOf, now);
      return { graph, moment, rec: await this.lookup.find(graph, moment, nodeId, 'node_id') };
    }
    const row = await this.nodes.findWithGraph(
      key,
      decoded.n,
      asOf.kind === 'event' ? asOf.seq : null,
    );
    const graph = this.access.check(principal, row?.graph ?? null, graphId);
    this.lookup.nodeNo(graph, nodeId, 'node_id');
    const moment = this.moments.known(graph, asOf, now, row!.nextCreated);
    return {
      graph,
      moment,
      rec: row!.rec ?? (await this.lookup.find(graph, moment, nodeId, 'node_id')),
    };
  }
}
