import { Injectable } from '@nestjs/common';
import { eventId, graphPublicId } from '@graph-history/domain';
import { EventReadRepository, GraphHead } from '@graph-history/db';
import { parameterInvalid, resourceMissing } from '@graph-history/http';
import { outsideRetention } from '../api-errors';
import { AsOf } from './as-of';
import { Moment } from './moment';

/**
 * What a read fetched with its graph row, as of the event asked for (or the newest): the sequence
 * it read at and the `created` of the event after it (null when it is the newest).
 */
export interface Prefetched {
  seq: number;
  nextCreated: number | null;
}

/** Resolves `as_of` against a graph's retained history (decisions.md, "as_of"); the one place. */
@Injectable()
export class MomentService {
  constructor(private readonly events: EventReadRepository) {}

  /**
   * The moment `asOf` names; `prefetched` saves the next event's lookup when it read that event.
   * Without a promise when nothing is left to read (now, or the event `prefetched` read): a
   * promise turn less on the hot reads. Throws as the promise would reject.
   */
  resolve(
    graph: GraphHead,
    asOf: AsOf,
    now: number,
    prefetched?: Prefetched,
  ): Moment | Promise<Moment> {
    switch (asOf.kind) {
      case 'now':
        return this.known(graph, asOf, now, null);
      case 'event': {
        const seq = this.checkEvent(graph, asOf.graphId, asOf.seq, asOf.id, 'as_of');
        if (seq === graph.appliedSeq) return this.known(graph, asOf, now, null);
        if (prefetched?.seq === seq) return this.known(graph, asOf, now, prefetched.nextCreated);
        return this.events
          .createdAt(graph.graphId, seq + 1)
          .then((nextCreated) => this.known(graph, asOf, now, nextCreated));
      }
      case 'time':
        return this.atTime(graph, asOf, now);
    }
  }

  private async atTime(
    graph: GraphHead,
    asOf: Extract<AsOf, { kind: 'time' }>,
    now: number,
  ): Promise<Moment> {
    if (asOf.time > now) {
      throw parameterInvalid(
        'as_of',
        `as_of ${asOf.time} is in the future; pass a time up to now, or leave it out to read now.`,
      );
    }
    const seq =
      graph.firstSeq === null
        ? null
        : await this.events.seqAtOrBefore(
            graph.graphId,
            asOf.time,
            graph.firstSeq,
            graph.appliedSeq,
          );
    if (seq === null) {
      throw outsideRetention(
        'as_of',
        graph,
        `as_of ${asOf.time} is before the oldest retained event; read from first_event_id on.`,
      );
    }
    return { seq, eventId: eventId(graph.graphId, seq), at: asOf.time };
  }

  /**
   * Now, or an event id, when the next event's `created` is already known (null for the newest):
   * the read is judged at that instant, or now for the newest event.
   */
  private known(
    graph: GraphHead,
    asOf: Exclude<AsOf, { kind: 'time' }>,
    now: number,
    nextCreated: number | null,
  ): Moment {
    if (asOf.kind === 'now') {
      return {
        seq: graph.appliedSeq,
        eventId: graph.appliedSeq === 0 ? null : eventId(graph.graphId, graph.appliedSeq),
        at: now,
      };
    }
    const seq = this.checkEvent(graph, asOf.graphId, asOf.seq, asOf.id, 'as_of');
    return { seq, eventId: asOf.id, at: seq === graph.appliedSeq ? now : (nextCreated ?? now) };
  }

  /**
   * The sequence of an event id given as `param` (as_of or a cursor), checked against the graph:
   * another graph's or a future event is resource_missing, a trimmed one outside_retention_window.
   */
  checkEvent(graph: GraphHead, idGraphId: number, seq: number, id: string, param: string): number {
    if (idGraphId !== graph.graphId || seq > graph.appliedSeq) {
      throw resourceMissing(
        param,
        `No such event in graph ${graphPublicId(graph.graphKey)}: ${id}.`,
      );
    }
    if (graph.firstSeq === null || seq < graph.firstSeq) {
      throw outsideRetention(
        param,
        graph,
        `Event ${id} is no longer retained; continue from first_event_id.`,
      );
    }
    return seq;
  }
}
