import { Injectable } from '@nestjs/common';
import { emptyCounts, graphKeyFromId } from '@graph-history/domain';
import { GraphReadRepository } from '@graph-history/db';
import { Principal } from '@graph-history/http';
import { AsOf } from '../as-of/as-of';
import { MomentService } from '../as-of/moment.service';
import { GraphAccessService } from './graph-access.service';
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

  async retrieve(
    principal: Principal,
    graphId: string,
    asOf: AsOf,
  ): Promise<Record<string, unknown>> {
    const [out] = await this.view.present([await this.read(principal, graphId, asOf, Date.now())]);
    return out!;
  }

  /** The graph at its moment; as of now or an event id, with its facts in one query. */
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
    const row = await this.graphs.findWithFacts(key, asOf.kind === 'event' ? asOf.seq : null);
    const graph = this.access.check(principal, row?.graph ?? null, graphId);
    const moment = this.moments.known(graph, asOf, now, row!.nextCreated);
    const facts = {
      firstEventCreated: row!.firstEventCreated,
      counts: row!.momentCounts ?? emptyCounts(),
      lastEvent: row!.momentCreated,
    };
    return { graph, moment, facts };
  }
}
