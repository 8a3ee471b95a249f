import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { emptyCounts, jsonStringBody, type ShownGraphCounts } from '@graph-history/domain';
import { EventReadRepository, GraphRow, NodeReadRepository } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';
import { Moment } from '../as-of/moment';
import { publicBaseUrl } from '../public-urls';
import { graphJson } from './graph-json';

/** What a Graph shows at a moment, besides its row: from the events table. */
export interface GraphFacts {
  firstEventCreated: number | null;
  /** Counts after the moment's event (zeros before the first event). */
  counts: ShownGraphCounts;
  /** `created` of the moment's event. */
  lastEvent: number | null;
  /** Working nodes touched since `activeSince(moment.at)`, when already counted. */
  activeWorking?: number;
}

export interface GraphAt {
  graph: GraphRow;
  moment: Moment;
  facts: GraphFacts;
}

/**
 * Renders Graphs as of their moments: counts of the moment's event with `stale` judged at the
 * moment (one batched query however many graphs), and the retention range held now.
 */
@Injectable()
export class GraphViewService {
  /** Where a graph's page is (this plus its public id), as it stands inside a JSON string. */
  private readonly pagesUrlJson: string;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly events: EventReadRepository,
    private readonly nodes: NodeReadRepository,
  ) {
    this.pagesUrlJson = jsonStringBody(`${publicBaseUrl(config)}/graphs/`);
  }

  /** Facts of many graphs at their moments, in one query. */
  async factsOf(items: { graph: GraphRow; moment: Moment }[]): Promise<GraphFacts[]> {
    const lookups = items.flatMap(({ graph, moment }) => [
      { graphId: graph.graphId, seq: graph.firstSeq ?? 0 },
      { graphId: graph.graphId, seq: moment.seq === graph.appliedSeq ? 0 : moment.seq },
    ]);
    const facts = await this.events.facts(lookups);
    return items.map(({ graph }, i) => {
      const atMoment = facts[2 * i + 1];
      return {
        firstEventCreated: facts[2 * i]?.created ?? null,
        counts: atMoment?.counts ?? graph.counts ?? emptyCounts(),
        lastEvent: atMoment?.created ?? graph.lastEvent,
      };
    });
  }

  /** Working nodes last touched at or after this instant are not stale at `at`. */
  activeSince(at: number): number {
    return at - this.staleAfterMs;
  }

  get staleAfterMs(): number {
    return this.config.STALE_AFTER_MS;
  }

  /** The Graphs at their moments as JSON text (graphJson), active working nodes counted if not yet. */
  async present(items: GraphAt[]): Promise<string[]> {
    const uncounted = items.filter(({ facts }) => facts.activeWorking === undefined);
    const counted = await this.nodes.countActiveWorking(
      uncounted.map(({ graph, moment }) => ({
        graphId: graph.graphId,
        seq: moment.seq,
        since: this.activeSince(moment.at),
        // versions valid at the moment were last touched by then, or by the newest event when
        // its sender's clock ran ahead of ours
        until:
          moment.seq === graph.appliedSeq ? Math.max(moment.at, graph.lastEvent ?? 0) : moment.at,
      })),
    );
    let next = 0;
    return items.map((item) =>
      graphJson(item, item.facts.activeWorking ?? counted[next++]!, this.pagesUrlJson),
    );
  }
}
