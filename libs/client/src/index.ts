export { GraphHistory, DEFAULT_BASE_URL, type ClientOptions } from './client.js';
export {
  GraphHistoryError,
  AuthenticationError,
  PermissionError,
  InvalidRequestError,
  RateLimitError,
  ApiError,
  ConnectionError,
  type ErrorDetails,
} from './errors.js';
export type { RetentionGap, FollowItem, FollowOptions } from './follow/follow-events.js';
export type { StreamOptions } from './stream/stream-events.js';
export type { NoticeGap, NoticeStreamItem, NoticeStreamOptions } from './stream/stream-notices.js';
export type { FetchLike, FetchResponse } from './http/fetch-like.js';
export type { RetryOptions } from './http/retry-policy.js';
export type { RequestOptions } from './http/transport.js';
export { PageList } from './pagination/page-list.js';
export { noticeSummary } from './notice-text.js';
export type { Graphs } from './resources/graphs.js';
export type { Nodes } from './resources/nodes.js';
export type { Events } from './resources/events.js';
export type { Notices } from './resources/notices.js';
export type * from './types/resources.js';
export type * from './types/expand.js';
export type * from './types/params.js';
export { webhooks } from './webhooks/index.js';
export {
  WebhookSignatureError,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyOptions,
} from './webhooks/verify-signature.js';
