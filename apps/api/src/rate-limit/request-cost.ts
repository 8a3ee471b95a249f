import { DEFAULT_LIMIT } from '../lists/list-params';

/** A query that expands anything. */
const EXPANDS = /(^|&)expand(%5B|\[|=)/i;

/**
 * Response body bytes one token pays for. A request costs 1 token, plus 1 for each full
 * COST_UNIT_BYTES of its body: the body measures what the request read and built (expanded
 * objects, rows of a page), so a page of 1,000 expanded nodes costs far more than a node read.
 */
export const COST_UNIT_BYTES = 4 * 1024;

export const requestCost = (bodyBytes: number): number =>
  1 + Math.floor(bodyBytes / COST_UNIT_BYTES);

/**
 * Tokens a request holds before it reads (see FairShare): a plain list (no expansion) one for each
 * item its `limit` asks for (DEFAULT_LIMIT when it names none), each paying for COST_UNIT_BYTES
 * beyond what its first token pays for; anything else what a body of up to `maxBytes` costs. Never
 * more than `maxBytes` costs.
 */
export function tokensToReserve(maxBytes: number, url: string): number {
  const most = Math.max(0, Math.ceil(maxBytes / COST_UNIT_BYTES) - 1);
  const q = url.indexOf('?');
  const query = q < 0 ? '' : url.slice(q + 1);
  if (EXPANDS.test(query)) return most;
  const limit = /(^|&)limit=(\d+)(&|$)/.exec(query);
  return Math.min(most, limit ? Number(limit[2]) : DEFAULT_LIMIT);
}

/** What a request that reserved `tokens` (after its first) may read: what they pay for. */
export const bytesPaidFor = (tokens: number, maxBytes: number): number =>
  Math.min(maxBytes, (tokens + 1) * COST_UNIT_BYTES);

/** Pages above this size are expensive (see isExpensive). */
const CHEAP_LIMIT = 100;

/**
 * Whether a request may be expensive, judged from its URL before it runs: it expands something,
 * or asks for a page of more than 100. Such requests count against the account's concurrency bound.
 */
export function isExpensive(url: string): boolean {
  const q = url.indexOf('?');
  // a stream holds its connection for long: it must not hold a slot as well
  if (/\/(events|notices)\/stream(\?|$)/.test(url)) return false;
  if (q < 0) return false;
  const query = url.slice(q + 1);
  if (EXPANDS.test(query)) return true;
  const limit = /(^|&)limit=(\d+)/.exec(query);
  return limit !== null && Number(limit[2]) > CHEAP_LIMIT;
}

/**
 * Whether a request may read much stored JSON, judged from its URL: a list (events, nodes; their
 * pages hold up to PAGE_MAX_BYTES whatever their limit) or an expansion. It reserves its cost
 * before it reads (see FairShare).
 */
export function readsMuch(url: string): boolean {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return /\/(events|nodes)\/?$/.test(path) || (q >= 0 && EXPANDS.test(url.slice(q + 1)));
}
