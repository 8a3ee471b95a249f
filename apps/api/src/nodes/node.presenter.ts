import { Inject, Injectable } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { isStale, toPublicNode } from '@graph-history/domain';
import { GraphRow } from '@graph-history/db';
import { CONFIG } from '@graph-history/http';
import { NodeExpansion } from '../expand/expand-paths';
import { Expanded, NodeSlot } from '../expand/node-slot';
import { listEnvelope } from '../lists/list-envelope';

type Json = Record<string, unknown>;

/** Lists appended after the node's own fields, in this order. */
const TRAILING: NodeExpansion[] = [
  'children',
  'descendants',
  'tasks',
  'spawns',
  'waits',
  'messages',
];

/**
 * Renders a node slot as the read API's Node: fields in the order of read-api.md, `stale` judged
 * at the slot's moment, and each expansion beside its `_id` field.
 */
@Injectable()
export class NodePresenter {
  constructor(@Inject(CONFIG) private readonly config: Config) {}

  present(graph: Pick<GraphRow, 'graphId' | 'graphKey'>, slot: NodeSlot): Json {
    const f = toPublicNode(graph.graphId, slot.rec, graph.graphKey);
    const x = slot.expanded;
    const render = (key: NodeExpansion): Json => {
      const e = x.get(key);
      return e ? { [key.replace('blocked.', '')]: this.expanded(graph, e) } : {};
    };
    const out: Json = {
      id: f.id,
      object: 'node',
      as_of_event_id: slot.moment.eventId,
      graph_id: f.graph_id,
      provider_ref: f.provider_ref,
      provider: f.provider,
      kind: f.kind,
      parent_id: f.parent_id,
      ...render('parent'),
      root_id: f.root_id,
      ...render('root'),
      session_id: f.session_id,
      ...render('session'),
      requested_by_id: f.requested_by_id,
      ...render('requested_by'),
      depth: f.depth,
      state: f.state,
      stale: isStale(slot.rec, slot.moment.at, this.config.STALE_AFTER_MS),
      attention: f.attention && {
        reason: f.attention.reason,
        message: f.attention.message,
        since: f.attention.since,
      },
      title: f.title,
      summary: f.summary,
      headline: f.headline,
      purpose: f.purpose,
      agent_type: f.agent_type,
      background: f.background,
      link_method: f.link_method,
      spawn_call_id: f.spawn_call_id,
      cwd: f.cwd,
      created: f.created,
      ended: f.ended,
      last_event: f.last_event,
      child_count: f.child_count,
      descendant_count: f.descendant_count,
      background_agent_count: f.background_agent_count,
      task_counts: {
        total: f.task_counts.total,
        pending: f.task_counts.pending,
        in_progress: f.task_counts.in_progress,
        completed: f.task_counts.completed,
        open: f.task_counts.open,
      },
      blocked: f.blocked && {
        on_ids: f.blocked.on_ids,
        ...render('blocked.on'),
        starting: f.blocked.starting,
        node_count: f.blocked.node_count,
        open_tasks: f.blocked.open_tasks,
        cycle: f.blocked.cycle,
      },
    };
    for (const key of TRAILING) Object.assign(out, render(key));
    return out;
  }

  private expanded(graph: Pick<GraphRow, 'graphId' | 'graphKey'>, e: Expanded): unknown {
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
