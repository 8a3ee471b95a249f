import { errorFromAnswer, type GraphHistoryError } from '../errors.js';
import type { ErrorType } from '../types/resources.js';

/** The status a request would have been answered with, for an error message of the stream. */
const STATUS_OF: Record<ErrorType, number> = {
  authentication_error: 401,
  permission_error: 403,
  invalid_request_error: 400,
  rate_limit_error: 429,
  api_error: 500,
};

/** The typed error of an `event: error` message (its data is the error envelope). */
export function streamError(data: string): GraphHistoryError {
  let body: { error?: { type?: ErrorType; code?: string } } | undefined;
  try {
    body = JSON.parse(data) as typeof body;
  } catch {
    body = undefined;
  }
  const type = body?.error?.type;
  const status =
    body?.error?.code === 'resource_missing'
      ? 404
      : type && type in STATUS_OF
        ? STATUS_OF[type]
        : 500;
  return errorFromAnswer(body, { status, requestId: null, retryAfter: null });
}
