/** What Fastify gives JSON bodies; set on routes that may answer with JSON text. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The list envelope (listEnvelope, same fields in the same order) as JSON text around items that
 * are JSON text already: what JSON.stringify of the envelope gives, without parsing the items.
 */
export const listJson = (
  url: string,
  asOfEventId: string | null,
  hasMore: boolean,
  items: string[],
): string =>
  `{"object":"list","url":${JSON.stringify(url)},"as_of_event_id":${JSON.stringify(asOfEventId)},"has_more":${hasMore},"data":[${items.join(',')}]}`;
