/** Every notice type, in the order the API reference lists them. */
export const NOTICE_TYPES = [
  'node.input_required',
  'node.failed',
  'node.wait_cycle',
  'session.ended',
  'graph.quarantined',
] as const;

export type NoticeType = (typeof NOTICE_TYPES)[number];

export const isNoticeType = (s: string): s is NoticeType =>
  (NOTICE_TYPES as readonly string[]).includes(s);
