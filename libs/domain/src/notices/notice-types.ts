/** Every notice type, in the order notices of one node and event are made. */
export const NOTICE_TYPES = [
  'node.input_required',
  'node.failed',
  'node.wait_cycle',
  'session.ended',
  'graph.quarantined',
] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

export const isNoticeType = (v: string): v is NoticeType =>
  (NOTICE_TYPES as readonly string[]).includes(v);
