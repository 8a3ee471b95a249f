import { EXPAND_PARAMS, ExpandRequest, readExpand } from '../expand/expand-paths';
import { QueryParams } from '../query/query-params';
import { readString } from '../query/query-values';

export interface EventStreamQuery {
  /** Where the stream resumes: Last-Event-ID, else `starting_after`; absent: from now. */
  startingAfter: string | undefined;
  /** `expand` below `data.node`, as in the events list. */
  expand: ExpandRequest;
}

export function readEventStreamQuery(
  q: QueryParams,
  lastEventId: string | string[] | undefined,
): EventStreamQuery {
  q.allowOnly(['starting_after', ...EXPAND_PARAMS]);
  const fromQuery = readString(q, 'starting_after');
  const header = typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : undefined;
  return { startingAfter: header ?? fromQuery, expand: readExpand(q, ['data', 'node']) };
}
