import { ApiFailure } from './types';

/**
 * Marks API calls as the viewer's own: with it (and only with it) the API accepts the session
 * cookie. A cross-site page cannot add a custom header without a preflight the API never grants.
 */
const VIEWER_HEADERS = { 'Graph-History-Viewer': '1', Accept: 'application/json' };

export type Query = Record<string, string | number | undefined | null | string[]>;

export function apiPath(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((x) => params.append(`${k}[]`, x));
    else params.set(k, String(v));
  }
  const qs = params.toString();
  return `/api/v1${path}${qs ? `?${qs}` : ''}`;
}

export interface JsonResponse<T> {
  body: T | null;
  etag: string | null;
}

/** A GET of the API with the session; null body on 304. A lost session goes back to sign-in. */
export async function getJson<T>(
  url: string,
  opts: { etag?: string | null; signal?: AbortSignal } = {},
): Promise<JsonResponse<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      credentials: 'same-origin',
      headers: { ...VIEWER_HEADERS, ...(opts.etag ? { 'If-None-Match': opts.etag } : {}) },
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiFailure(0, 'network', 'The service cannot be reached.');
  }
  if (res.status === 304) return { body: null, etag: opts.etag ?? null };
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const e = body?.error ?? {};
    if (res.status === 401) {
      location.assign(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`);
    }
    throw new ApiFailure(
      res.status,
      e.code ?? 'api_error',
      e.message ?? res.statusText,
      e.first_event_id ?? null,
    );
  }
  return { body: body as T, etag: res.headers.get('ETag') };
}
