import type { Socket } from 'node:net';
import { ApiError, parameterInvalid } from './api-error';
import { toEnvelope } from './error-envelope';
import { newRequestId } from './request-id';
import { DATA_HEADERS } from './security-headers';

const HEADER_LINES = Object.entries(DATA_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** What Node's HTTP parser refused, as the error the client is told about. */
function clientError(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW')
    return new ApiError(
      431,
      'invalid_request_error',
      'request_too_large',
      'The URL and headers together are larger than 16 KB; shorten the URL or send fewer or smaller headers.',
    );
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT')
    return new ApiError(
      408,
      'invalid_request_error',
      'request_timeout',
      'The request did not arrive in time; send it whole, and promptly.',
    );
  if (code === 'HPE_INVALID_EOF_STATE')
    return parameterInvalid(
      'body',
      'The connection ended before the whole request arrived (a body shorter than its Content-Length?); send the whole body, or the right Content-Length.',
    );
  if (code === 'HPE_INVALID_URL')
    return parameterInvalid(
      null,
      'The URL holds characters that must be percent-encoded (spaces, controls, non-ASCII bytes); encode them.',
    );
  return parameterInvalid(
    null,
    'The request is not valid HTTP/1.1 (request line, header syntax or framing); fix the client.',
  );
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before Fastify sees a request
 * (bytes it cannot parse, a URL or headers over the size limit, a request that came too slowly)
 * is answered in the error envelope with a Request-Id, and the connection closed.
 */
export const clientErrorHandler =
  (docBase: string) =>
  (err: Error & { code?: string }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      const requestId = newRequestId();
      const e = toEnvelope(clientError(err.code), {
        requestId,
        method: 'GET',
        url: '/',
        docBase,
      });
      const body = JSON.stringify(e.body);
      socket.write(
        `HTTP/1.1 ${e.status} ${STATUS_TEXT[e.status] ?? 'Bad Request'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n${HEADER_LINES}` +
          `Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
