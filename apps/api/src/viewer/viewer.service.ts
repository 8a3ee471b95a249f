import { Injectable } from '@nestjs/common';
import { decodeId } from '@graph-history/domain';
import { Principal } from '@graph-history/http';
import { AsOf } from '../as-of/as-of';
import { DESCENDANTS_PAGE } from '../expand/node-expander.service';
import type { PublicGraph } from '@graph-history/domain';
import { GraphReadService } from '../graphs/graph-read.service';
import { NodeListService } from '../nodes/node-list.service';
import { NodeListQuery } from '../nodes/node-list.query';
import { ViewerNode, viewerPage } from './viewer-page';

/** The viewer page of a graph, read through the API's own graph and nodes-list services. */
@Injectable()
export class ViewerService {
  constructor(
    private readonly graphs: GraphReadService,
    private readonly nodes: NodeListService,
  ) {}

  async page(principal: Principal, graphId: string, asOf: AsOf): Promise<string> {
    const graph = await this.graphs.retrieve(principal, graphId, asOf);
    const list = await this.nodes.list(principal, graphId, treePage(sameMoment(graph, asOf)));
    // the nodes list renders Node objects; without expansions they hold exactly these fields
    const nodes = list.data as ViewerNode[];
    const last = nodes[nodes.length - 1];
    return viewerPage({
      graph,
      nodes,
      nodesUrl: list.url,
      moreUrl: list.has_more && last ? `${list.url}&starting_after=${last.id}` : null,
    });
  }
}

/**
 * The graph's moment for the nodes list: the same time for a time, else the graph's event (so
 * events applied between the two reads do not show).
 */
function sameMoment(graph: PublicGraph, asOf: AsOf): AsOf {
  if (asOf.kind === 'time' || graph.as_of_event_id === null) return asOf;
  const id = decodeId('evt', graph.as_of_event_id)!;
  return { kind: 'event', graphId: id.graphId, seq: id.n, id: graph.as_of_event_id };
}

const treePage = (asOf: AsOf): NodeListQuery => ({
  asOf,
  page: { limit: DESCENDANTS_PAGE },
  order: 'tree',
  orderGiven: true,
  expand: { tree: null, descendantsMaxDepth: null, paths: [] },
});
