import { noticeSummary, type Notice, type NoticeGap } from '@graph-history/client';

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** One readable line per notice: time, type, graph, what it says, the link to the moment. */
export const noticeLine = (n: Notice): string =>
  [time(n.created), n.type.padEnd(19), n.graph_id, noticeSummary(n), n.url].join('  ');

/** The line where notices were dropped before the stream could read them. */
export const noticeGapLine = (gap: NoticeGap): string =>
  `-- notices after ${gap.after} were dropped before they could be read (an account keeps its newest); resuming at ${gap.first_notice_id} --`;

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
  GH_NOTICE_MESSAGE: noticeSummary(n),
});
