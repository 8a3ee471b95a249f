import { Injectable } from '@nestjs/common';
import { emptyCounts, eventId, graphKeyFromId } from '@graph-history/domain';
import { GraphReadRepository } from '@graph-history/db';
import { Principal, resourceMissing } from '@graph-history/http';
import { listUrl, takePage } from '../lists/list-envelope';
import { listJson } from '../lists/list-json';
import { quote } from '../query/query-values';
import { GraphIdCache } from './graph-id-cache.service';
import { GraphListQuery, LAST_EVENT_FILTERS } from './graph-list.query';
import { GraphViewService } from './graph-view.service';

/**
 * GET /graphs (read-api.md 4.1): the key's watch graphs, most recently active first; one
 * statement reads the page, the cursor's place in it and each graph's facts now. The body is
 * JSON text, written graph by graph (the route sends it as it is).
 */
@Injectable()
export class GraphListService {
  constructor(
    private readonly graphs: GraphReadRepository,
    private readonly ids: GraphIdCache,
    private readonly view: GraphViewService,
  ) {}

  async list(principal: Principal, query: GraphListQuery): Promise<string> {
    const { limit, startingAfter, endingBefore } = query.page;
    const cursor = startingAfter ?? endingBefore;
    const param = startingAfter === undefined ? 'ending_before' : 'starting_after';
    const cursorId = cursor === undefined ? undefined : await this.cursorId(cursor, param);
    const now = Date.now();
    const rows = await this.graphs.list({
      accountId: principal.accountId,
      graphKeys: principal.graphKeys,
      lastEvent: query.lastEvent,
      after: endingBefore === undefined ? cursorId : undefined,
      before: endingBefore === undefined ? undefined : cursorId,
      limit: limit + 1,
      now,
      activeSince: this.view.activeSince(now),
    });
    if (rows === null) throw notInList(cursor!, param);
    const { data, hasMore } = takePage({ rows, cut: false }, limit, endingBefore !== undefined);
    const items = await this.view.present(
      data.map(({ graph, firstEventCreated, activeWorking }) => ({
        graph,
        moment: {
          seq: graph.appliedSeq,
          eventId: eventId(graph.graphId, graph.appliedSeq),
          at: now,
        },
        facts: {
          firstEventCreated,
          counts: graph.counts ?? emptyCounts(),
          lastEvent: graph.lastEvent,
          activeWorking,
        },
      })),
    );
    const url = listUrl('/api/v1/graphs', [
      ...LAST_EVENT_FILTERS.map((op): [string, number | undefined] => [
        `last_event[${op}]`,
        query.lastEvent[op],
      ]),
      ['limit', limit],
    ]);
    return listJson(url, null, hasMore, items);
  }

  /** The id of a cursor graph; whether the list holds it, the page's statement decides. */
  private async cursorId(id: string, param: string): Promise<number> {
    const key = graphKeyFromId(id);
    const graphId = key === null ? null : await this.ids.idOf(key);
    if (graphId === null) throw notInList(id, param);
    return graphId;
  }
}

const notInList = (id: string, param: string) =>
  resourceMissing(param, `${quote(id)} is not a graph of this list; pass an id from a page of it.`);
