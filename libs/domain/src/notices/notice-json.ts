import { eventId, graphPublicId, nodeId, noticeId } from '../ids';
import { NoticeType } from './notice-types';

/** Everything a notice's public JSON is made of. */
export interface NoticeParts {
  accountId: number;
  noticeNo: number;
  type: NoticeType;
  created: number;
  graphId: number;
  graphKey: string;
  nodeNo: number | null;
  /** The event that caused it; null for graph.quarantined (the refused event was not applied). */
  seq: number | null;
  data: object;
}

/** The viewer link to the moment of a notice: the graph's page as of the event, the node open. */
export function noticeUrl(viewerBase: string, p: NoticeParts): string {
  const q = new URLSearchParams();
  if (p.seq !== null) q.set('as_of', eventId(p.graphId, p.seq));
  if (p.nodeNo !== null) q.set('node', nodeId(p.graphId, p.nodeNo));
  const qs = q.toString();
  return `${viewerBase}/graphs/${graphPublicId(p.graphKey)}${qs ? `?${qs}` : ''}`;
}

/**
 * The Notice object (NoticeSchema, same field order) as JSON text: written once, when the notice
 * is made, and served as it is by the list, the stream and webhooks. `viewerBase` is where people
 * open the viewer (publicBaseUrl).
 */
export function noticeJson(viewerBase: string, p: NoticeParts): string {
  return JSON.stringify({
    id: noticeId(p.accountId, p.noticeNo),
    object: 'notice',
    type: p.type,
    created: p.created,
    graph_id: graphPublicId(p.graphKey),
    node_id: p.nodeNo === null ? null : nodeId(p.graphId, p.nodeNo),
    event_id: p.seq === null ? null : eventId(p.graphId, p.seq),
    url: noticeUrl(viewerBase, p),
    data: p.data,
  });
}
