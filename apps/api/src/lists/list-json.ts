import { listEnvelope } from './list-envelope';

/** What Fastify gives JSON bodies; set on routes that may answer with JSON text. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The list envelope (listEnvelope) as JSON text around items that are JSON text already: what
 * JSON.stringify of the envelope gives, without parsing the items (`data` is its last field).
 */
export const listJson = (
  url: string,
  asOfEventId: string | null,
  hasMore: boolean,
  items: string[],
): string =>
  `${JSON.stringify(listEnvelope(url, asOfEventId, hasMore, [])).slice(0, -']}'.length)}${items.join(',')}]}`;
