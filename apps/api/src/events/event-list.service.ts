import { Injectable } from '@nestjs/common';
import {
  decodeId,
  encodeIds,
  eventJsonIn,
  jsonStringBody,
  presentEvent,
} from '@graph-history/domain';
import { EventReadRepository, EventWithNode, GraphHead } from '@graph-history/db';
import { Principal, resourceMissing } from '@graph-history/http';
import { Moment } from '../as-of/moment';
import { MomentService } from '../as-of/moment.service';
import { ExpandBudget, MAX_EXPANDED_OBJECTS } from '../expand/expand-budget';
import { graphPath } from '../expand/expand-urls';
import { NodeExpander } from '../expand/node-expander.service';
import { nodeSlot, NodeSlot } from '../expand/node-slot';
import { GraphAccessService } from '../graphs/graph-access.service';
import { listUrl, NO_ROWS, takePage } from '../lists/list-envelope';
import { listJson } from '../lists/list-json';
import { NodePresenter } from '../nodes/node.presenter';
import { quote } from '../query/query-values';
import { EventListQuery } from './event-list.query';

/** A page of the events list: the events as JSON text, each with its sequence. */
export interface EventPage {
  graph: GraphHead;
  url: string;
  asOfEventId: string | null;
  hasMore: boolean;
  items: { seq: number; json: string }[];
}

/** GET /graphs/{graph_id}/events (read-api.md 4.5): retained events up to the moment. */
@Injectable()
export class EventListService {
  constructor(
    private readonly access: GraphAccessService,
    private readonly moments: MomentService,
    private readonly events: EventReadRepository,
    private readonly expander: NodeExpander,
    private readonly presenter: NodePresenter,
  ) {}

  async list(
    principal: Principal,
    graphId: string,
    query: EventListQuery,
    maxBytes: number,
  ): Promise<string> {
    const page = await this.page(principal, graphId, query, maxBytes);
    return listJson(
      page.url,
      page.asOfEventId,
      page.hasMore,
      page.items.map((e) => e.json),
    );
  }

  /**
   * The list's page, its stored JSON at most `maxBytes` (at least one event): each event as JSON
   * text with its sequence (also the event streams' read).
   */
  async page(
    principal: Principal,
    graphId: string,
    query: EventListQuery,
    maxBytes: number,
  ): Promise<EventPage> {
    const { graph, ...prefetched } = await this.access.findAt(principal, graphId, query.asOf);
    const now = Date.now();
    const moment = await this.moments.resolve(graph, query.asOf, now, prefetched);
    const { limit, startingAfter, endingBefore } = query.page;
    const after =
      startingAfter === undefined
        ? undefined
        : this.cursor(graph, moment, startingAfter, 'starting_after');
    const before =
      endingBefore === undefined
        ? undefined
        : this.cursor(graph, moment, endingBefore, 'ending_before');
    // Range in sequence numbers, and the scan direction (reversed for ending_before).
    const asc = query.order === 'asc';
    let from = graph.firstSeq ?? 1;
    let to = moment.seq;
    if (after !== undefined) [from, to] = asc ? [after + 1, to] : [from, after - 1];
    if (before !== undefined) [from, to] = asc ? [from, before - 1] : [before + 1, to];
    const scanAsc = before === undefined ? asc : !asc;
    const range = {
      graphId: graph.graphId,
      fromSeq: from,
      toSeq: to,
      direction: scanAsc ? ('asc' as const) : ('desc' as const),
      limit: limit + 1,
      maxBytes,
    };
    const empty = moment.seq === 0 || from > to;
    const reversed = before !== undefined;
    const head = { graph, url: this.url(graph, moment, query), asOfEventId: moment.eventId };
    const keyJson = jsonStringBody(graph.graphKey);
    // no expansion below data.node: the stored JSON, spliced (JSON text, sent as it is)
    if (!query.expand.tree) {
      const { data, hasMore } = takePage(
        empty ? NO_ROWS : await this.events.pageJson(range),
        limit,
        reversed,
      );
      const items = data.map((e) => ({ seq: e.seq, json: eventJsonIn(e.json, keyJson) }));
      return { ...head, hasMore, items };
    }
    if (query.expand.tree.size === 0) {
      const { data, hasMore } = takePage(
        empty ? NO_ROWS : await this.events.pageJsonWithNodes(range),
        limit,
        reversed,
      );
      const moments = this.momentsOf(graph, data, now);
      const items = data.map((e, i) => {
        const node = e.node && this.presenter.presentJson(keyJson, e.node, moments[i]!);
        return { seq: e.seq, json: eventJsonIn(e.json, keyJson, node) };
      });
      return { ...head, hasMore, items };
    }
    // expansions below data.node: records, expanded and presented
    const rows = empty ? NO_ROWS : await this.events.pageWithNodes(range);
    const { data, hasMore } = takePage(rows, limit, reversed);
    const nodes = await this.nodesOf(graph, data, query, now, maxBytes);
    const items = data.map((e, i) => ({
      seq: e.seq,
      json: JSON.stringify(
        presentEvent(
          graph.graphId,
          graph.graphKey,
          e,
          nodes[i] ? this.presenter.present(graph, nodes[i]) : null,
        ),
      ),
    }));
    return { ...head, hasMore, items };
  }

  /** A cursor's sequence: an event of this list (trimmed ones are 410 with the retained bounds). */
  private cursor(graph: GraphHead, moment: Moment, id: string, param: string): number {
    const decoded = decodeId('evt', id);
    if (!decoded) throw resourceMissing(param, `No such event: ${quote(id)}.`);
    const seq = this.moments.checkEvent(graph, decoded.graphId, decoded.n, id, param);
    if (seq > moment.seq)
      throw resourceMissing(param, `${id} is after as_of, so it is not in this list.`);
    return seq;
  }

  /**
   * The moment each event's node is shown at: just after the event (its stale judged then); the
   * events' ids sealed at once.
   */
  private momentsOf(
    graph: GraphHead,
    events: readonly { seq: number; nextCreated: number | null }[],
    now: number,
  ): Moment[] {
    const ids = encodeIds(
      'evt',
      graph.graphId,
      events.map((e) => e.seq),
    );
    return events.map((e, i) => ({
      seq: e.seq,
      eventId: ids[i]!,
      at: e.seq === graph.appliedSeq ? now : (e.nextCreated ?? now),
    }));
  }

  /** `data.node`: each event's node as it stood just after the event, at that event's moment. */
  private async nodesOf(
    graph: GraphHead,
    events: EventWithNode[],
    query: EventListQuery,
    now: number,
    maxBytes: number,
  ): Promise<(NodeSlot | null)[]> {
    const moments = this.momentsOf(graph, events, now);
    const slots = events.map((e, i) =>
      e.node ? nodeSlot(e.node, moments[i]!, query.expand.tree ?? undefined) : null,
    );
    const present = slots.filter((s): s is NodeSlot => s !== null);
    const budget = new ExpandBudget(MAX_EXPANDED_OBJECTS, maxBytes);
    budget.take(present.length);
    await this.expander.expand(graph, present, query.expand.descendantsMaxDepth, budget);
    return slots;
  }

  private url(graph: GraphHead, moment: Moment, q: EventListQuery): string {
    return listUrl(`${graphPath(graph.graphKey)}/events`, [
      ['order', q.order],
      ['as_of', moment.eventId],
      ['limit', q.page.limit],
      ...q.expand.paths.map((p): [string, string] => ['expand[]', p]),
      ['descendants_max_depth', q.expand.descendantsMaxDepth],
    ]);
  }
}
