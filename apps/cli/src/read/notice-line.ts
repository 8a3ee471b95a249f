import type { Notice } from '@graph-history/client';

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
const MAX_TEXT = 80;

const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** What a notice says in a few words: whose, what, why (a person reads it at a glance). */
export function noticeMessage(n: Notice): string {
  const d = n.data;
  if (!('kind' in d)) return `graph ${n.graph_id} stopped applying: ${cut(d.reason)}`;
  const who = `${d.kind}${d.title ? ` ${JSON.stringify(cut(d.title))}` : ''}`;
  switch (n.type) {
    case 'node.input_required':
      return `${who} needs you${d.attention ? ` (${d.attention.reason}${d.attention.message ? `: ${cut(d.attention.message)}` : ''})` : ''}`;
    case 'node.failed':
      return `${who} failed${d.headline ? `: ${cut(d.headline)}` : ''}`;
    case 'node.wait_cycle':
      return `${who} is in a wait cycle (a deadlock)`;
    default:
      return `${who} ended (${d.state})`;
  }
}

/** One readable line per notice: time, type, graph, what it says, the link to the moment. */
export const noticeLine = (n: Notice): string =>
  [time(n.created), n.type.padEnd(19), n.graph_id, noticeMessage(n), n.url].join('  ');

/** The GH_NOTICE_* variables a `--exec` command gets (the notice JSON comes on stdin). */
export const noticeEnv = (n: Notice): Record<string, string> => ({
  GH_NOTICE_ID: n.id,
  GH_NOTICE_TYPE: n.type,
  GH_NOTICE_CREATED: String(n.created),
  GH_NOTICE_GRAPH_ID: n.graph_id,
  GH_NOTICE_NODE_ID: n.node_id ?? '',
  GH_NOTICE_EVENT_ID: n.event_id ?? '',
  GH_NOTICE_URL: n.url,
  GH_NOTICE_TITLE: 'title' in n.data ? (n.data.title ?? '') : '',
  GH_NOTICE_MESSAGE: noticeMessage(n),
});
