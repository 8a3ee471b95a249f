import { HttpException } from '@nestjs/common';
import { isConnectionError } from '@graph-history/db';
import { ApiError, ErrorBody, ErrorType, unknownUrl } from './api-error';

export interface Envelope {
  status: number;
  headers: Record<string, string>;
  body: { error: ErrorBody };
}

/**
 * Nest hands Fastify's body errors to filters as plain HttpExceptions; the status tells which
 * Fastify error it was.
 */
const FASTIFY_CODE_BY_STATUS: Record<number, string> = {
  413: 'FST_ERR_CTP_BODY_TOO_LARGE',
  415: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
};

function fromFastify(err: { statusCode: number; code?: string; message: string }): ApiError {
  const status = err.statusCode;
  if (err.code === undefined && /body cannot be empty/i.test(err.message))
    err = { ...err, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' };
  // a body cut short: Fastify's own check, or Node's `aborted` when the client stops sending
  if (/did not match Content-Length|^aborted$/i.test(err.message))
    err = { ...err, code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' };
  switch (err.code ?? FASTIFY_CODE_BY_STATUS[status]) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        413,
        'invalid_request_error',
        'request_too_large',
        'The request body is larger than allowed; send a smaller body.',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        415,
        'invalid_request_error',
        'unsupported_media_type',
        'Send the body as application/json.',
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(
        400,
        'invalid_request_error',
        'parameter_invalid',
        'The request body ended before its Content-Length; send the whole body, or the right Content-Length.',
        'body',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(
        400,
        'invalid_request_error',
        'parameter_invalid',
        'The request body is empty; send a JSON object.',
        'body',
      );
    default:
      if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/i.test(err.message)) {
        return new ApiError(
          400,
          'invalid_request_error',
          'parameter_invalid',
          'The request body is not valid JSON; fix its syntax.',
          'body',
        );
      }
      return new ApiError(
        status,
        'invalid_request_error',
        'parameter_invalid',
        'The request is malformed; check its headers and body.',
      );
  }
}

function typeFor(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

/** Maps anything thrown while serving a request to the contract's error envelope. */
export function toEnvelope(
  err: unknown,
  ctx: { requestId: string; method: string; url: string; docBase: string },
): Envelope {
  let e: ApiError;
  if (err instanceof ApiError) {
    e = err;
  } else if (err instanceof HttpException) {
    const status = err.getStatus();
    e =
      status === 404
        ? unknownUrl(ctx.method, ctx.url)
        : status === 400 || status in FASTIFY_CODE_BY_STATUS
          ? fromFastify({ statusCode: status, message: err.message })
          : new ApiError(
              status,
              typeFor(status),
              status >= 500 ? 'api_error' : 'parameter_invalid',
              err.message,
            );
  } else if (
    typeof (err as { statusCode?: unknown })?.statusCode === 'number' &&
    (err as { statusCode: number }).statusCode < 500
  ) {
    e = fromFastify(err as { statusCode: number; code?: string; message: string });
  } else if (isConnectionError(err)) {
    e = new ApiError(
      503,
      'api_error',
      'api_error',
      `The service is temporarily unavailable; retry shortly, and quote request ${ctx.requestId} if it persists.`,
    );
  } else {
    e = new ApiError(
      500,
      'api_error',
      'api_error',
      `Something went wrong on our side; retry, and quote request ${ctx.requestId} if it persists.`,
    );
  }
  return {
    status: e.status,
    headers: e.headers,
    body: {
      error: {
        type: e.type,
        code: e.code,
        message: e.message,
        param: e.param,
        doc_url: `${ctx.docBase}/docs/errors#${e.code}`,
        ...e.extra,
      },
    },
  };
}
