import type { ErrorEnvelope } from '@graph-history/domain';
/** The envelope's `type` values (`ErrorSchema`, the one definition of the error envelope). */
export type ErrorType = ErrorEnvelope['error']['type'];

/** The envelope's `error`, open to the extra fields some codes add. */
export interface ErrorBody {
  type: ErrorType;
  code: string;
  message: string;
  param: string | null;
  doc_url: string;
  [extra: string]: unknown;
}

/**
 * An error the API answers in the contract's envelope. Throw it anywhere below a controller;
 * the envelope filter renders it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const parameterInvalid = (param: string | null, message: string): ApiError =>
  new ApiError(400, 'invalid_request_error', 'parameter_invalid', message, param);

export const parameterUnknown = (param: string): ApiError =>
  new ApiError(
    400,
    'invalid_request_error',
    'parameter_unknown',
    `Received unknown parameter: ${param}. Remove it and try again.`,
    param,
  );

export const resourceMissing = (param: string | null, message: string): ApiError =>
  new ApiError(404, 'invalid_request_error', 'resource_missing', message, param);

export const unknownUrl = (method: string, url: string): ApiError =>
  resourceMissing(
    null,
    `Unrecognized request URL (${method} ${url.split('?')[0]}). Check the path and the API version.`,
  );

/** 405 with `Allow`; `advice` says what to do instead. */
export const methodNotAllowed = (method: string, allowed: string[], advice: string): ApiError =>
  new ApiError(
    405,
    'invalid_request_error',
    'method_not_allowed',
    `The ${method} method is not allowed here; ${advice}.`,
    null,
    {},
    { Allow: allowed.join(', ') },
  );

export const apiKeyInvalid = (message: string): ApiError =>
  new ApiError(
    401,
    'authentication_error',
    'api_key_invalid',
    message,
    null,
    {},
    {
      'WWW-Authenticate': 'Bearer realm="graph-history"',
    },
  );

export const apiKeyRestricted = (message: string): ApiError =>
  new ApiError(403, 'permission_error', 'api_key_restricted', message);

export const rateLimited = (
  retryAfterSeconds: number,
  extraHeaders: Record<string, string> = {},
  reason = 'Too many requests',
): ApiError =>
  new ApiError(
    429,
    'rate_limit_error',
    'rate_limit',
    `${reason}; wait ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'} before retrying.`,
    null,
    {},
    { 'Retry-After': String(retryAfterSeconds), ...extraHeaders },
  );
