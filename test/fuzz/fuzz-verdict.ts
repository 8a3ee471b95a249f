import type { FuzzRequest } from './fuzz-requests';
import type { FuzzResponse } from './fuzz-send';

export type Violation = '5xx' | 'non-envelope' | 'no-request-id' | 'over-1s';

export const SLOW_MS = 1_000;

/** True when `body` is the error envelope: `{ error: { type, code, message, param, doc_url } }`. */
export function isEnvelope(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const e = (parsed as { error?: Record<string, unknown> })?.error;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.type === 'string' &&
    typeof e.code === 'string' &&
    typeof e.message === 'string' &&
    (e.param === null || typeof e.param === 'string') &&
    typeof e.doc_url === 'string'
  );
}

/**
 * What is wrong with an answer: a 5xx (or no answer), an error outside the envelope, no
 * `Request-Id`, or slower than a second. Successful answers may be any body.
 */
export function judge(req: FuzzRequest, res: FuzzResponse): Violation[] {
  const found: Violation[] = [];
  if (res.status === 0 || res.status >= 500) found.push('5xx');
  if (
    res.status >= 400 &&
    req.method !== 'HEAD' &&
    !isEnvelope(res.body) &&
    !isViewerPage(req, res)
  )
    found.push('non-envelope');
  if (res.status === 0 || !/^req_[0-9A-Za-z]{16}$/.test(res.headers['request-id'] ?? ''))
    found.push('no-request-id');
  if (res.ms > SLOW_MS) found.push('over-1s');
  return found;
}

/** The viewer (`/graphs/{id}`, a page for browsers) shows its errors as an HTML page, by design. */
const isViewerPage = (req: FuzzRequest, res: FuzzResponse): boolean =>
  req.target.toString('latin1').startsWith('/graphs/') &&
  (res.headers['content-type'] ?? '').startsWith('text/html') &&
  res.body.includes(res.headers['request-id'] ?? '\u0000');

/** A request as one line, for reports. */
export const describeRequest = (req: FuzzRequest): string =>
  `${req.method} ${req.target.toString('latin1').slice(0, 200)} ${JSON.stringify(req.headers).slice(0, 200)} ${req.body?.toString('utf8').slice(0, 200) ?? ''}`;
