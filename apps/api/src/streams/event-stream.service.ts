import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { decodeId } from '@graph-history/domain';
import { Principal, resourceMissing } from '@graph-history/http';
import { GraphAccessService } from '../graphs/graph-access.service';
import { quote } from '../query/query-values';
import { openSseResponse } from './open-sse-response';
import { EventFanOut } from './event-fan-out';
import { OpenStreams } from './open-streams';
import { EventStream } from './event-stream';
import { EventStreamQuery } from './event-stream.query';

/**
 * GET /graphs/{graph_id}/events/stream: checks the key and the graph (errors answer as any
 * request's), then answers with Server-Sent Events: the events after the position (Last-Event-ID
 * or `starting_after`; without either, from now), then live ones.
 */
@Injectable()
export class EventStreamService {
  constructor(
    private readonly access: GraphAccessService,
    private readonly openStreams: OpenStreams,
    private readonly fanOut: EventFanOut,
  ) {}

  async open(
    principal: Principal,
    graphId: string,
    query: EventStreamQuery,
    reply: FastifyReply,
  ): Promise<void> {
    const { graph } = await this.access.findAt(principal, graphId, { kind: 'now' });
    const start =
      query.startingAfter === undefined
        ? graph.appliedSeq
        : this.position(graph.graphId, query.startingAfter);
    const release = this.openStreams.admit(principal.accountId, 'events');
    const res = openSseResponse(reply);
    const stream = new EventStream(
      res,
      principal,
      graph.graphId,
      graph.graphKey,
      query.expand,
      start,
    );
    res.once('close', () => {
      stream.end();
      release();
    });
    const feed = this.fanOut.add(stream);
    void this.fanOut.catchUp(feed, stream);
  }

  /** The sequence of a resume position: an event id of this graph (retained or not). */
  private position(graphId: number, id: string): number {
    const decoded = decodeId('evt', id);
    if (!decoded || decoded.graphId !== graphId)
      throw resourceMissing('starting_after', `No such event in this graph: ${quote(id)}.`);
    return decoded.n;
  }
}
