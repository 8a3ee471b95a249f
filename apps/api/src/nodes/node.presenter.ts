import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import {
  inFieldOrder,
  nodeJsonAt,
  isStale,
  NODE_BLOCKED_FIELDS,
  NODE_FIELDS,
  presentNode,
  toPublicNode,
  type PublicNode,
} from '@graph-history/domain';
import { GraphHead, NodeJson } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';
import type { Moment } from '../as-of/moment';
import { Expanded, NodeSlot } from '../expand/node-slot';
import { listEnvelope } from '../lists/list-envelope';

type GraphNames = Pick<GraphHead, 'graphId' | 'graphKey'>;

/**
 * Renders a node slot as the read API's Node: `stale` judged at the slot's moment, each expansion
 * under its own name, the fields in NodeSchema's order (JSON.stringify keeps it on the wire).
 */
@Injectable()
export class NodePresenter {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  present(graph: GraphNames, slot: NodeSlot): PublicNode {
    const { eventId, at } = slot.moment;
    if (eventId === null) throw new Error('A node is never shown before its graph’s first event.');
    const stale = isStale(slot.rec, at, this.config.STALE_AFTER_MS);
    if (slot.expanded.size === 0)
      return presentNode(graph.graphId, graph.graphKey, slot.rec, eventId, stale);
    const node: PublicNode = {
      ...toPublicNode(graph.graphId, slot.rec, graph.graphKey),
      object: 'node',
      as_of_event_id: eventId,
      stale,
    };
    for (const [key, e] of slot.expanded) {
      const value = this.expanded(graph, e);
      if (key !== 'blocked.on') node[key] = value;
      else if (node.blocked)
        node.blocked = inFieldOrder(NODE_BLOCKED_FIELDS, { ...node.blocked, on: value });
    }
    return inFieldOrder(NODE_FIELDS, node);
  }

  /**
   * A node without expansions as JSON text at `moment`: its stored JSON with the per-read fields
   * filled in. `graphKeyJson` is jsonStringBody of the graph's key.
   */
  presentJson(graphKeyJson: string, node: NodeJson, moment: Moment): string {
    const { eventId, at } = moment;
    if (eventId === null) throw new Error('A node is never shown before its graph’s first event.');
    return nodeJsonAt(
      node.json,
      graphKeyJson,
      eventId,
      isStale(node, at, this.config.STALE_AFTER_MS),
    );
  }

  private expanded(graph: GraphNames, e: Expanded): Record<string, unknown> {
    switch (e.kind) {
      case 'node':
        return this.present(graph, e.slot);
      case 'nodes':
        return listEnvelope(
          e.url,
          e.asOfEventId,
          e.hasMore,
          e.slots.map((s) => this.present(graph, s)),
        );
      case 'items':
        return listEnvelope(e.url, e.asOfEventId, false, e.items);
    }
  }
}
