import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { setResponseHeaders } from '@graph-history/http';

/** What EventSource clients wait after a dropped connection before they reconnect (ms). */
const RETRY_MS = 1_000;

/**
 * Takes the response over from Fastify and starts a Server-Sent Events answer on it (status 200,
 * the request's usual headers, then the reconnection delay).
 */
export function openSseResponse(reply: FastifyReply): ServerResponse {
  setResponseHeaders(reply.request, reply);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(`retry: ${RETRY_MS}\n\n`);
  return res;
}
