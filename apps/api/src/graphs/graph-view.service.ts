import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import {
  emptyCounts,
  eventId,
  graphPublicId,
  NO_USAGE,
  NODE_STATES,
  usageTotals,
  type ShownGraphCounts,
} from '@graph-history/domain';
import { EventReadRepository, GraphRow, NodeReadRepository } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';
import { Moment } from '../as-of/moment';
import { publicBaseUrl } from '../public-urls';
import { applyErrorMessage, CountedGraphAt, graphJson } from './graph-json';
import type { PublicGraph } from '@graph-history/domain';

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
 * Renders Graph objects as of their moments: counts of the moment's event with `stale` judged at
 * the moment (one batched query however many graphs), and the retention range held now.
 */
@Injectable()
export class GraphViewService {
  /** Where a graph's page is: this plus its public id. */
  private readonly pagesUrl: string;
  /** The same inside a JSON string. */
  private readonly pagesUrlJson: string;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly events: EventReadRepository,
    private readonly nodes: NodeReadRepository,
  ) {
    this.pagesUrl = `${publicBaseUrl(config)}/graphs/`;
    this.pagesUrlJson = JSON.stringify(this.pagesUrl).slice(1, -1);
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

  async present(items: GraphAt[]): Promise<PublicGraph[]> {
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
    const active = items.map(({ facts }) => facts.activeWorking ?? counted[next++]!);
    return items.map(({ graph, moment, facts }, i): PublicGraph => {
      const { counts } = facts;
      const hasEvents = graph.appliedSeq > 0 && graph.firstSeq !== null;
      const id = graphPublicId(graph.graphKey);
      return {
        id,
        object: 'graph',
        as_of_event_id: moment.eventId,
        source: graph.source,
        url: this.pagesUrl + id,
        created: graph.created,
        last_event: facts.lastEvent,
        retention: {
          event_count: hasEvents ? graph.appliedSeq - graph.firstSeq! + 1 : 0,
          first_event_id: hasEvents ? eventId(graph.graphId, graph.firstSeq!) : null,
          first_event_created: facts.firstEventCreated,
          last_event_id: hasEvents ? eventId(graph.graphId, graph.appliedSeq) : null,
          last_event_created: graph.lastEvent,
        },
        counts: {
          nodes: counts.nodes,
          sessions: counts.sessions,
          agents: counts.agents,
          stale: Math.max(0, counts.by_state.working - (active[i] ?? 0)),
          blocked: counts.blocked,
          by_state: byState(counts),
        },
        usage: usageTotals(counts.usage ?? NO_USAGE),
        ...(graph.applyError && {
          apply_error: {
            code: 'event_rejected',
            message: applyErrorMessage(graph.applyError.message),
            since: graph.applyError.since,
          },
        }),
      };
    });
  }

  /** `present` of graphs counted already, each as JSON text (see graphJson). */
  presentJson(items: CountedGraphAt[]): string[] {
    return items.map((item) => graphJson(item, this.pagesUrlJson));
  }
}

/** Counts by state in NODE_STATES order, zero for states the stored counts lack. */
function byState(counts: ShownGraphCounts): PublicGraph['counts']['by_state'] {
  const out = {} as Record<string, number>;
  for (const state of NODE_STATES) out[state] = counts.by_state[state] ?? 0;
  return out as PublicGraph['counts']['by_state'];
}
