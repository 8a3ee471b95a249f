import { AppliedEvent } from '../applied-event';
import { ChangeEntry } from '../event';
import { NodeRecord } from '../node';
import { NodeNoticeFacts, nodeNoticeFacts } from './notice-facts';
import { NoticeType } from './notice-types';

/** A notice an applied event makes about one node (the graph and the event are the event's). */
export interface NodeNotice {
  type: Exclude<NoticeType, 'graph.quarantined'>;
  nodeNo: number;
  data: NodeNoticeFacts;
}

interface Cycle {
  cycle?: boolean;
}

const changedTo = (c: ChangeEntry, field: string): { from: unknown; to: unknown } | undefined =>
  c.fields[field];

/** The notice types one change entry makes, in NOTICE_TYPES order. */
function typesOf(c: ChangeEntry, node: NodeRecord): NodeNotice['type'][] {
  const types: NodeNotice['type'][] = [];
  const state = changedTo(c, 'state');
  const attention = changedTo(c, 'attention');
  const blocked = changedTo(c, 'blocked');
  const ended = changedTo(c, 'ended');
  if (
    (attention && attention.from === null && attention.to !== null) ||
    (state && state.to === 'input_required')
  )
    types.push('node.input_required');
  if (state && state.to === 'failed') types.push('node.failed');
  if (blocked && (blocked.to as Cycle | null)?.cycle === true) {
    if ((blocked.from as Cycle | null)?.cycle !== true) types.push('node.wait_cycle');
  }
  if (node.kind === 'session' && ended && ended.from === null && ended.to !== null)
    types.push('session.ended');
  return types;
}

/**
 * The notices an applied event makes, from what the reducer changed: each change entry (from/to
 * of the node's public fields) with the node's new version beside it (`versions` are in the
 * order of `changes`). Pure; the apply writes them in the event's own commit.
 */
export function noticesOf(applied: AppliedEvent): NodeNotice[] {
  const notices: NodeNotice[] = [];
  const { changes } = applied.event;
  for (let i = 0; i < changes.length; i++) {
    const node = applied.versions[i]!;
    for (const type of typesOf(changes[i]!, node))
      notices.push({ type, nodeNo: node.no, data: nodeNoticeFacts(node) });
  }
  return notices;
}
