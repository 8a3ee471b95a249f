import type { RequestOptions, Transport } from '../http/transport.js';
import type { PageFetcher } from '../pagination/page-list.js';
import type { List } from '../types/resources.js';

export const graphPath = (graphId: string): string =>
  `/api/v1/graphs/${encodeURIComponent(graphId)}`;

/** The body of the answer (always a 200: no `If-None-Match` is sent). */
export async function fetchBody<T>(
  transport: Transport,
  path: string,
  options: RequestOptions,
): Promise<T> {
  const answer = await transport.get<T>(path, options);
  return answer.body as T;
}

export function pageFetcher<T>(transport: Transport): PageFetcher<T> {
  return (path, options) => fetchBody<List<T>>(transport, path, options);
}
