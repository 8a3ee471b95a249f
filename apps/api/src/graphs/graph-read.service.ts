import { Injectable } from '@nestjs/common';
import { emptyCounts, graphKeyFromId } from '@graph-history/domain';
import { GraphReadRepository } from '@graph-history/db';
import { Principal } from '@graph-history/http';
import { AsOf } from '../as-of/as-of';
import { MomentService } from '../as-of/moment.service';
import { GraphAccessService } from './graph-access.service';
import type { PublicGraph } from '@graph-history/domain';
import { GraphAt, GraphViewService } from './graph-view.service';

/** GET /graphs/{graph_id} (read-api.md 4.2). */
@Injectable()
export class GraphReadService {
  constructor(
    private readonly access: GraphAccessService,
    private readonly moments: MomentService,
    private readonly graphs: GraphReadRepository,
    private readonly view: GraphViewService,
  ) {}

  async retrieve(principal: Principal, graphId: string, asOf: AsOf): Promise<PublicGraph> {
    const [out] = await this.view.present([await this.read(principal, graphId, asOf, Date.now())]);
    return out!;
  }

  /** The graph at its moment; as of now or the newest event, with its facts in one query. */
  private async read(
    principal: Principal,
    graphId: string,
    asOf: AsOf,
    now: number,
  ): Promise<GraphAt> {
    const key = graphKeyFromId(graphId);
    if (asOf.kind === 'time' || key === null) {
      const graph = await this.access.find(principal, graphId);
      const moment = await this.moments.resolve(graph, asOf, now);
      const [facts] = await this.view.factsOf([{ graph, moment }]);
      return { graph, moment, facts: facts! };
    }
    // the active nodes are counted for `now`: the moment's instant when it is the newest event
    // (the usual case); for an older event, present() counts them again at the moment's instant
    const row = await this.graphs.findWithFacts(
      key,
      asOf.kind === 'event' ? asOf.seq : null,
      this.view.activeSince(now),
    );
    const graph = this.access.check(principal, row?.graph ?? null, graphId);
    const moment = this.moments.known(graph, asOf, now, row!.nextCreated);
    const facts = {
      firstEventCreated: row!.firstEventCreated,
      counts: row!.momentCounts ?? emptyCounts(),
      lastEvent: row!.momentCreated,
      activeWorking: moment.at === now ? row!.activeWorking : undefined,
    };
    return { graph, moment, facts };
  }
}
