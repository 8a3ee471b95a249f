import { Injectable } from '@nestjs/common';
import { graphKeyFromId, eventId } from '@graph-history/domain';
import { GraphListFilter, GraphListPosition, GraphReadRepository } from '@graph-history/db';
import { Principal, resourceMissing } from '@graph-history/http';
import { ListEnvelope, listEnvelope, listUrl, takePage } from '../lists/list-envelope';
import { quote } from '../query/query-values';
import { GraphListQuery, LAST_EVENT_FILTERS } from './graph-list.query';
import { GraphViewService } from './graph-view.service';

/** GET /graphs (read-api.md 4.1): the key's watch graphs, most recently active first. */
@Injectable()
export class GraphListService {
  constructor(
    private readonly graphs: GraphReadRepository,
    private readonly view: GraphViewService,
  ) {}

  async list(principal: Principal, query: GraphListQuery): Promise<ListEnvelope<unknown>> {
    const { limit, startingAfter, endingBefore } = query.page;
    const filter: GraphListFilter = {
      accountId: principal.accountId,
      graphKeys: principal.graphKeys,
      lastEvent: query.lastEvent,
    };
    const after =
      startingAfter === undefined
        ? undefined
        : await this.cursor(filter, startingAfter, 'starting_after');
    const before =
      endingBefore === undefined
        ? undefined
        : await this.cursor(filter, endingBefore, 'ending_before');
    const rows = await this.graphs.list({ ...filter, after, before, limit: limit + 1 });
    const { data, hasMore } = takePage(rows, limit, before !== undefined);
    const now = Date.now();
    const atNow = data.map((graph) => ({
      graph,
      moment: { seq: graph.appliedSeq, eventId: eventId(graph.graphId, graph.appliedSeq), at: now },
    }));
    const facts = await this.view.factsOf(atNow);
    const items = await this.view.present(atNow.map((g, i) => ({ ...g, facts: facts[i]! })));
    const url = listUrl('/api/v1/graphs', [
      ...LAST_EVENT_FILTERS.map((op): [string, number | undefined] => [
        `last_event[${op}]`,
        query.lastEvent[op],
      ]),
      ['limit', limit],
    ]);
    return listEnvelope(url, null, hasMore, items);
  }

  /** A cursor graph must be in the list (the repository's filters decide). */
  private async cursor(
    filter: GraphListFilter,
    id: string,
    param: string,
  ): Promise<GraphListPosition> {
    const key = graphKeyFromId(id);
    const graph = key === null ? null : await this.graphs.findInList(filter, key);
    if (graph?.lastEvent == null)
      throw resourceMissing(
        param,
        `${quote(id)} is not a graph of this list; pass an id from a page of it.`,
      );
    return { lastEvent: graph.lastEvent, graphKey: graph.graphKey };
  }
}
