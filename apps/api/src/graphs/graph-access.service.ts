import { Injectable } from '@nestjs/common';
import { graphKeyFromId } from '@graph-history/domain';
import { GraphReadRepository, GraphRow } from '@graph-history/db';
import { apiKeyRestricted, mayReadGraph, Principal, resourceMissing } from '@graph-history/http';
import { quote } from '../query/query-values';

/** Finds a graph a key may read; another account's graph is indistinguishable from none. */
@Injectable()
export class GraphAccessService {
  constructor(private readonly graphs: GraphReadRepository) {}

  async find(principal: Principal, graphId: string): Promise<GraphRow> {
    const key = graphKeyFromId(graphId);
    return this.check(principal, key === null ? null : await this.graphs.findByKey(key), graphId);
  }

  /** A row read with its graph by `graphId`, if this key may read that graph. */
  checkRow<T extends { graph: GraphRow }>(principal: Principal, row: T | null, graphId: string): T {
    if (row === null) throw missing(graphId);
    this.check(principal, row.graph, graphId);
    return row;
  }

  /** The graph read by `graphId`, if this key may read it. */
  check(principal: Principal, graph: GraphRow | null, graphId: string): GraphRow {
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
