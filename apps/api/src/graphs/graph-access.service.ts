import { Injectable } from '@nestjs/common';
import { graphKeyFromId } from '@graph-history/domain';
import { GraphAt, GraphHead, GraphReadRepository, GraphRow } from '@graph-history/db';
import { apiKeyRestricted, mayReadGraph, Principal, resourceMissing } from '@graph-history/http';
import { AsOf } from '../as-of/as-of';
import { quote } from '../query/query-values';
import { GraphIdCache } from './graph-id-cache.service';

/** Finds a graph a key may read; another account's graph is indistinguishable from none. */
@Injectable()
export class GraphAccessService {
  constructor(
    private readonly graphs: GraphReadRepository,
    private readonly ids: GraphIdCache,
  ) {}

  async find(principal: Principal, graphId: string): Promise<GraphRow> {
    const key = graphKeyFromId(graphId);
    const id = key === null ? null : await this.ids.idOf(key);
    return this.check(principal, id === null ? null : await this.graphs.findById(id), graphId);
  }

  /**
   * What `read` finds with its graph by the id of the graph `graphId` names (one query for both),
   * if this key may read that graph.
   */
  async readWith<T extends { graph: GraphHead }>(
    principal: Principal,
    graphId: string,
    read: (id: number) => Promise<T | null>,
  ): Promise<T> {
    const key = graphKeyFromId(graphId);
    const id = key === null ? null : (this.ids.known(key) ?? (await this.ids.idOf(key)));
    const row = id === null ? null : await read(id);
    if (row === null) throw missing(graphId);
    this.check(principal, row.graph, graphId);
    return row;
  }

  /**
   * The graph `graphId` names, with the sequence and next event's time of the event `asOf` names
   * (or the newest) for MomentService.resolve, in one query, if this key may read it.
   */
  findAt(principal: Principal, graphId: string, asOf: AsOf): Promise<GraphAt> {
    const seq = asOf.kind === 'event' ? asOf.seq : null;
    return this.readWith(principal, graphId, (id) => this.graphs.findAt(id, seq));
  }

  /** The graph read by `graphId`, if this key may read it. */
  check<G extends GraphHead>(principal: Principal, graph: G | null, graphId: string): G {
    if (!graph || graph.accountId !== principal.accountId || graph.source !== 'watch') {
      throw missing(graphId);
    }
    if (!mayReadGraph(principal, graph.graphKey)) {
      throw apiKeyRestricted(
        `This restricted key cannot read graph ${graphId}; use a key that lists it.`,
      );
    }
    return graph;
  }
}

const missing = (graphId: string) =>
  resourceMissing('graph_id', `No such graph: ${quote(graphId)}.`);
