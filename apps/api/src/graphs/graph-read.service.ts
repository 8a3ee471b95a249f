import { Injectable } from '@nestjs/common';
import { emptyCounts } from '@graph-history/domain';
import { GraphReadRepository } from '@graph-history/db';
import { Principal } from '@graph-history/http';
import { AsOf } from '../as-of/as-of';
import { MomentService } from '../as-of/moment.service';
import { GraphAccessService } from './graph-access.service';
import { GraphFacts, GraphViewService } from './graph-view.service';

/**
 * GET /graphs/{graph_id}: one query reads the graph and its facts as of the event asked for (or
 * the newest); the graph and `as_of` are then checked in that order.
 */
@Injectable()
export class GraphReadService {
  constructor(
    private readonly access: GraphAccessService,
    private readonly moments: MomentService,
    private readonly graphs: GraphReadRepository,
    private readonly view: GraphViewService,
  ) {}

  async retrieve(principal: Principal, graphId: string, asOf: AsOf): Promise<string> {
    const now = Date.now();
    // the active nodes are counted at the moment's instant: `now` for the newest event, else the
    // next event's time
    const prefetched = await this.access.readWith(principal, graphId, (id) =>
      this.graphs.findWithFacts(
        id,
        asOf.kind === 'event' ? asOf.seq : null,
        this.view.activeSince(now),
        this.view.staleAfterMs,
      ),
    );
    // not `{ graph, ...prefetched }`: an object rest copies the row, ~0.5 µs a read
    const graph = prefetched.graph;
    const moment = await this.moments.resolve(graph, asOf, now, prefetched);
    const facts: GraphFacts =
      prefetched.seq === moment.seq
        ? {
            firstEventCreated: prefetched.firstEventCreated,
            counts: prefetched.momentCounts ?? emptyCounts(),
            lastEvent: prefetched.momentCreated,
            // counted at the next event's instant, or now when there is none
            activeWorking:
              moment.at === (prefetched.nextCreated ?? now) ? prefetched.activeWorking : undefined,
          }
        : (await this.view.factsOf([{ graph, moment }]))[0]!;
    const [out] = await this.view.present([{ graph, moment, facts }]);
    return out!;
  }
}
