import type { EventListExpand, NodeExpand, NodeListExpand } from './expand.js';
import type { ApiQuery, NoticeType } from './resources.js';

/** A moment: an event id (`evt_…`, just after that event), a time in ms, or a Date. */
export type AsOf = string | number | Date;

/** Cursors and page size of every list. */
export interface PageParams {
  /** Items per page, 1 to 1,000 (default 100). Auto-pagination fetches pages of this size. */
  limit?: number;
  /** The page after this id; auto-pagination then walks forward. */
  startingAfter?: string;
  /** The page before this id; auto-pagination then walks backward, yielding items in reverse. */
  endingBefore?: string;
}

export interface GraphListParams extends PageParams {
  /** Keep graphs whose latest event time (ms) is `gt`/`gte`/`lt`/`lte` the value. */
  lastEvent?: { gt?: number; gte?: number; lt?: number; lte?: number };
}

export interface GraphRetrieveParams {
  asOf?: AsOf;
}

export interface NodeRetrieveParams<E extends NodeExpand = NodeExpand> {
  asOf?: AsOf;
  /** Paths to expand (`parent`, `children.tasks`, `blocked.on`…); at most 20, 4 levels each. */
  expand?: readonly E[];
  /** Levels below the node that a `descendants` expansion reaches (1 to 1,000). */
  descendantsMaxDepth?: number;
}

export interface NodeListParams<E extends NodeListExpand = NodeListExpand> extends PageParams {
  asOf?: AsOf;
  /** `created` (default: creation order) or `tree` (depth-first, children oldest first). */
  order?: ApiQuery<'listNodes'>['order'];
  /** Only the children of this node. */
  parentId?: string;
  /** Only the nodes below this node. */
  ancestorId?: string;
  /** Levels below `ancestorId` (1 to 1,000); only with `ancestorId`. */
  maxDepth?: number;
  kind?: ApiQuery<'listNodes'>['kind'];
  /** Only nodes in this state at the list's moment. */
  state?: ApiQuery<'listNodes'>['state'];
  /** Paths to expand on each node, starting with `data.` (`data.parent`, `data.tasks`…). */
  expand?: readonly E[];
  descendantsMaxDepth?: number;
}

export interface EventListParams<E extends EventListExpand = EventListExpand> extends PageParams {
  /** Only events up to this moment. */
  asOf?: AsOf;
  /** `desc` (default: newest first) or `asc` (oldest first). */
  order?: ApiQuery<'listEvents'>['order'];
  /** `data.node` adds each event's node as it stood just after the event; deeper paths expand it. */
  expand?: readonly E[];
  descendantsMaxDepth?: number;
}

/** Which notices: only one graph's (`gph_…`), only some types. */
export interface NoticeFilterParams {
  graph?: string;
  type?: NoticeType | readonly NoticeType[];
}

export interface NoticeListParams extends PageParams, NoticeFilterParams {}
