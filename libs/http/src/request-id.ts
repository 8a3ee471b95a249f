import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const ID_CHARS = 16;
const POOL_IDS = 256;
let pool = randomBytes(0);
let offset = 0;

/** `req_` + 16 random characters; random bytes are drawn in blocks, not per request. */
export function newRequestId(): string {
  if (offset + ID_CHARS > pool.length) {
    pool = randomBytes(ID_CHARS * POOL_IDS);
    offset = 0;
  }
  let id = 'req_';
  for (let i = 0; i < ID_CHARS; i++) id += ALPHABET[pool[offset + i]! % ALPHABET.length];
  offset += ID_CHARS;
  return id;
}

type WithRequestId = IncomingMessage & { requestId?: string };

/** Fastify's `genReqId`: the id is kept on the raw request so pino-http logs the same one. */
export function genReqId(raw: IncomingMessage): string {
  const req = raw as WithRequestId;
  req.requestId ??= newRequestId();
  return req.requestId;
}
