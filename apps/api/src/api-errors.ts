import { eventId } from '@graph-history/domain';
import { ApiError } from '@graph-history/http';
import type { GraphHead } from '@graph-history/db';

/** Errors only the read API raises; the shared ones live in @graph-history/http. */

export const outsideRetention = (param: string, graph: GraphHead, message: string): ApiError =>
  new ApiError(410, 'invalid_request_error', 'outside_retention_window', message, param, {
    first_event_id: graph.firstSeq === null ? null : eventId(graph.graphId, graph.firstSeq),
    last_event_id: graph.appliedSeq === 0 ? null : eventId(graph.graphId, graph.appliedSeq),
  });

export const nodeNotYetCreated = (nodeId: string, firstEventId: string): ApiError =>
  new ApiError(
    404,
    'invalid_request_error',
    'node_not_yet_created',
    `Node ${nodeId} does not exist yet at as_of; it is created by event ${firstEventId}. Read it as of that event or later.`,
    'as_of',
    { first_event_id: firstEventId },
  );

export const expandTooDeep = (path: string, max: number): ApiError =>
  new ApiError(
    400,
    'invalid_request_error',
    'expand_too_deep',
    `The expand path ${JSON.stringify(path)} has more than ${max} levels; shorten it and fetch deeper objects with another request.`,
    'expand',
  );

export const expandTooManyBytes = (maxBytes: number): ApiError =>
  new ApiError(
    400,
    'invalid_request_error',
    'expand_too_large',
    `The expansions would read more than the ${maxBytes.toLocaleString('en-US')} bytes this request may hold; ask for fewer items (limit) or expand fewer paths.`,
    'expand',
  );

export const expandTooLarge = (max: number): ApiError =>
  new ApiError(
    400,
    'invalid_request_error',
    'expand_too_large',
    `The expansions would return more than ${max.toLocaleString('en-US')} objects; expand fewer paths or page through the lists instead.`,
    'expand',
  );
