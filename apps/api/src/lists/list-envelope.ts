import type { ListEnvelope } from '@graph-history/domain';
import type { SizedPage } from '@graph-history/db';

export type { ListEnvelope };

export const listEnvelope = <T>(
  url: string,
  asOfEventId: string | null,
  hasMore: boolean,
  data: T[],
): ListEnvelope<T> => ({
  object: 'list',
  url,
  as_of_event_id: asOfEventId,
  has_more: hasMore,
  data,
});

export type UrlParam = [name: string, value: string | number | undefined | null];

/** `path?name=value&…` with the given parameters in order, skipping absent ones. */
export function listUrl(path: string, params: UrlParam[]): string {
  const parts = params
    .filter((p): p is [string, string | number] => p[1] !== undefined && p[1] !== null)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

/** The page of an empty range. */
export const NO_ROWS: SizedPage<never> = { rows: [], cut: false };

/**
 * Rows were fetched with `limit + 1` in scan order (reversed for `ending_before`), bounded in
 * bytes: the page and whether more items follow it in the direction of the scan (one past the
 * limit, or one left out for the byte bound).
 */
export function takePage<T>(
  page: SizedPage<T>,
  limit: number,
  reversed: boolean,
): { data: T[]; hasMore: boolean } {
  const data = page.rows.slice(0, limit);
  if (reversed) data.reverse();
  return { data, hasMore: page.cut || page.rows.length > limit };
}
