import { ApiError, apiKeyRestricted, parameterInvalid, rateLimited } from '@graph-history/http';
import { MAX_EVENTS_PER_BATCH } from './ingest-limits';

export const restrictedKeyCannotWrite = (): ApiError =>
  apiKeyRestricted('Restricted keys can only read; send events with a secret key (sk_live_…).');

export const invalidGraphKey = (): ApiError =>
  parameterInvalid(
    'graph_key',
    'The graph key must be 1 to 64 characters of A-Z, a-z, 0-9, _ and -; fix the URL.',
  );

export const invalidEventsBody = (): ApiError =>
  parameterInvalid(
    'events',
    `Send a JSON object whose events field is an array of 1 to ${MAX_EVENTS_PER_BATCH.toLocaleString('en-US')} events.`,
  );

export const unknownBodyField = (field: string): ApiError =>
  new ApiError(
    400,
    'invalid_request_error',
    'parameter_unknown',
    `Received unknown parameter: ${field.slice(0, 100)}. Remove it and try again.`,
    field.slice(0, 100),
  );

export const graphKeyTaken = (graphKey: string): ApiError =>
  new ApiError(
    409,
    'invalid_request_error',
    'graph_key_taken',
    `The graph key ${graphKey} belongs to another account; choose another graph key.`,
    'graph_key',
  );

/** The first bad event of a batch: `param` is relative to the event (`payload.state`, or `event`). */
export function eventRejected(
  index: number,
  rejection: { param: string; message: string },
): ApiError {
  const param =
    rejection.param === 'event' ? `events[${index}]` : `events[${index}].${rejection.param}`;
  return parameterInvalid(param, rejection.message);
}

/** Too many of the account's batches already wait for a store slot in this process. */
export const tooManyStoresWaiting = (): ApiError =>
  rateLimited(1, {}, 'This account has too many batches being stored at once');
