import { Injectable } from '@nestjs/common';
import { decodeId, jsonStringBody, type PublicNode } from '@graph-history/domain';
import { NodeReadRepository } from '@graph-history/db';
import { Principal } from '@graph-history/http';
import { MomentService } from '../as-of/moment.service';
import { ExpandBudget, MAX_EXPANDED_OBJECTS } from '../expand/expand-budget';
import { NodeExpander } from '../expand/node-expander.service';
import { nodeSlot } from '../expand/node-slot';
import { GraphAccessService } from '../graphs/graph-access.service';
import { NodeLookupService } from './node-lookup.service';
import { NodePresenter } from './node.presenter';
import { NodeReadQuery } from './node-read.query';

/**
 * GET /graphs/{graph_id}/nodes/{node_id}: one query reads the graph and the node as of the event
 * asked for (or the newest); the graph, `as_of` and the node are then checked in that order.
 */
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
    maxBytes: number,
  ): Promise<PublicNode | string> {
    const { asOf } = query;
    // no expansion: the node as its stored JSON, spliced (JSON text, sent as it is)
    const plain = !query.expand.tree || query.expand.tree.size === 0;
    const decoded = decodeId('node', nodeId);
    const asked = decoded?.n ?? 0;
    const prefetched = await this.access.readWith(principal, graphId, (id) =>
      this.nodes.findWithGraph(id, asked, asOf.kind === 'event' ? asOf.seq : null, !plain),
    );
    // not `{ graph, ...prefetched }`: an object rest copies the row, ~0.5 µs a read
    const graph = prefetched.graph;
    const moment = await this.moments.resolve(graph, asOf, Date.now(), prefetched);
    // the prefetched version is the node only when the id names a node of this graph (else
    // lookup.find answers 404)
    const found =
      prefetched.seq === moment.seq &&
      prefetched.node !== null &&
      decoded?.graphId === graph.graphId;
    if (plain && found)
      return this.presenter.presentJson(jsonStringBody(graph.graphKey), prefetched.node!, moment);
    const rec = found
      ? prefetched.record!
      : await this.lookup.find(graph, moment, nodeId, 'node_id');
    const slot = nodeSlot(rec, moment, query.expand.tree ?? undefined);
    if (plain) return JSON.stringify(this.presenter.present(graph, slot));
    await this.expander.expand(
      graph,
      [slot],
      query.expand.descendantsMaxDepth,
      new ExpandBudget(MAX_EXPANDED_OBJECTS, maxBytes),
    );
    return this.presenter.present(graph, slot);
  }
}
