import type { FastifyRequest } from 'fastify';

/**
 * The header the viewer's scripts send with every API call. A cross-site page cannot send a
 * custom header without a CORS preflight, which this API never grants; so a cookie is only
 * honoured on requests that carry it.
 */
export const VIEWER_REQUEST_HEADER = 'graph-history-viewer';

/** False when the browser says the request came from another site. */
function notCrossSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/**
 * An API call made from the viewer, so the session cookie may authenticate it: the page's own
 * requests (with the header), or a link followed from the page (the browser vouches for the
 * origin with `Sec-Fetch-Site: same-origin`, which no page can forge).
 */
export const isViewerApiCall = (req: FastifyRequest): boolean =>
  (req.headers[VIEWER_REQUEST_HEADER] === '1' && notCrossSite(req)) ||
  req.headers['sec-fetch-site'] === 'same-origin';

/**
 * A form post from this origin (sign-in, sign-out). Browsers say where a request comes from in
 * `Sec-Fetch-Site`; older ones only in `Origin` (which is `null` under `no-referrer`, so they are
 * refused rather than trusted).
 */
export function isSameOriginPost(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return false;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
