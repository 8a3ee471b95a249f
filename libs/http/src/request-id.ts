import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function newRequestId(): string {
  let id = 'req_';
  for (const b of randomBytes(16)) id += ALPHABET[b % ALPHABET.length];
  return id;
}

type WithRequestId = IncomingMessage & { requestId?: string };

/** Fastify's `genReqId`: the id is kept on the raw request so pino-http logs the same one. */
export function genReqId(raw: IncomingMessage): string {
  const req = raw as WithRequestId;
  req.requestId ??= newRequestId();
  return req.requestId;
}
