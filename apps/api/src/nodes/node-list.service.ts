import { Injectable } from '@nestjs/common';
import { jsonStringBody, type NodeRecord } from '@graph-history/domain';
import { GraphHead, NodeListFilter, NodeReadRepository } from '@graph-history/db';
import { parameterInvalid, Principal, resourceMissing } from '@graph-history/http';
import { Moment } from '../as-of/moment';
import { MomentService } from '../as-of/moment.service';
import { ExpandBudget, MAX_EXPANDED_OBJECTS } from '../expand/expand-budget';
import { NodeExpander } from '../expand/node-expander.service';
import { nodeSlot } from '../expand/node-slot';
import { graphPath } from '../expand/expand-urls';
import { GraphAccessService } from '../graphs/graph-access.service';
import { ListEnvelope, listEnvelope, listUrl, NO_ROWS, takePage } from '../lists/list-envelope';
import { listJson } from '../lists/list-json';
import { NodeListQuery } from './node-list.query';
import { NodeLookupService } from './node-lookup.service';
import { NodePresenter } from './node.presenter';

/** GET /graphs/{graph_id}/nodes: the nodes as of a moment, filtered, in creation or tree order. */
@Injectable()
export class NodeListService {
  constructor(
    private readonly access: GraphAccessService,
    private readonly moments: MomentService,
    private readonly lookup: NodeLookupService,
    private readonly nodes: NodeReadRepository,
    private readonly expander: NodeExpander,
    private readonly presenter: NodePresenter,
  ) {}

  async list(
    principal: Principal,
    graphId: string,
    query: NodeListQuery,
    maxBytes: number,
  ): Promise<ListEnvelope<unknown> | string> {
    if (query.maxDepth !== undefined && query.ancestorId === undefined) {
      throw parameterInvalid(
        'max_depth',
        'max_depth counts levels below ancestor_id; add ancestor_id or drop max_depth.',
      );
    }
    const { graph, ...prefetched } = await this.access.findAt(principal, graphId, query.asOf);
    const moment = await this.moments.resolve(graph, query.asOf, Date.now(), prefetched);
    const filter = await this.filter(graph, moment, query);
    const { limit, startingAfter, endingBefore } = query.page;
    const after =
      startingAfter === undefined
        ? undefined
        : await this.cursor(graph, filter, startingAfter, 'starting_after');
    const before =
      endingBefore === undefined
        ? undefined
        : await this.cursor(graph, filter, endingBefore, 'ending_before');
    const pageQuery = { ...filter, order: query.order, after, before, limit: limit + 1, maxBytes };
    const url = this.url(graph, moment, query);
    // no expansion: the stored JSON, spliced (JSON text, sent as it is)
    if (!query.expand.tree || query.expand.tree.size === 0) {
      const rows = moment.seq === 0 ? NO_ROWS : await this.nodes.pageJson(pageQuery);
      const { data, hasMore } = takePage(rows, limit, before !== undefined);
      const keyJson = jsonStringBody(graph.graphKey);
      const items = data.map((n) => this.presenter.presentJson(keyJson, n, moment));
      return listJson(url, moment.eventId, hasMore, items);
    }
    const rows = moment.seq === 0 ? NO_ROWS : await this.nodes.page(pageQuery);
    const { data, hasMore } = takePage(rows, limit, before !== undefined);
    const slots = data.map((rec) => nodeSlot(rec, moment, query.expand.tree ?? undefined));
    await this.expander.expand(
      graph,
      slots,
      query.expand.descendantsMaxDepth,
      new ExpandBudget(MAX_EXPANDED_OBJECTS, maxBytes),
    );
    return listEnvelope(
      url,
      moment.eventId,
      hasMore,
      slots.map((s) => this.presenter.present(graph, s)),
    );
  }

  private async filter(
    graph: GraphHead,
    moment: Moment,
    query: NodeListQuery,
  ): Promise<NodeListFilter> {
    const parent =
      query.parentId === undefined
        ? undefined
        : await this.lookup.find(graph, moment, query.parentId, 'parent_id');
    const ancestor =
      query.ancestorId === undefined
        ? undefined
        : await this.lookup.find(graph, moment, query.ancestorId, 'ancestor_id');
    return {
      graphId: graph.graphId,
      seq: moment.seq,
      parentNo: parent?.no,
      subtree: ancestor && {
        nodeNo: ancestor.no,
        sortKey: ancestor.sortKey,
        maxDepth: query.maxDepth === undefined ? null : ancestor.depth + query.maxDepth,
      },
      kind: query.kind,
      state: query.state,
    };
  }

  /** The cursor node, which must be in the list (the repository's filters decide). */
  private async cursor(
    graph: GraphHead,
    filter: NodeListFilter,
    id: string,
    param: string,
  ): Promise<NodeRecord> {
    const no = this.lookup.numberOf(graph, id);
    const rec = no === null ? null : await this.nodes.findInList(filter, no);
    if (!rec)
      throw resourceMissing(
        param,
        `${id} is not a node of this list; pass an id from a page of it.`,
      );
    return rec;
  }

  private url(graph: GraphHead, moment: Moment, q: NodeListQuery): string {
    return listUrl(`${graphPath(graph.graphKey)}/nodes`, [
      ['parent_id', q.parentId],
      ['ancestor_id', q.ancestorId],
      ['max_depth', q.maxDepth],
      ['order', q.orderGiven ? q.order : undefined],
      ['kind', q.kind],
      ['state', q.state],
      ['as_of', moment.eventId],
      ['limit', q.page.limit],
      ...q.expand.paths.map((p): [string, string] => ['expand[]', p]),
      ['descendants_max_depth', q.expand.descendantsMaxDepth],
    ]);
  }
}
