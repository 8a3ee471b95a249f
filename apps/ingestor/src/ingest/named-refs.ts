const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The refs a raw, not yet validated event names where validation looks refs up: `node`,
 * `payload.parent`, `payload.requested_by`, `payload.to` and `payload.on[]`. Only a prefetch hint:
 * a ref looked up beyond these is fetched on demand (see validateWithStoredRefs).
 */
export function namedRefs(raw: unknown): string[] {
  if (!isObject(raw)) return [];
  const refs: string[] = [];
  const add = (v: unknown) => typeof v === 'string' && refs.push(v);
  add(raw.node);
  const payload = raw.payload;
  if (isObject(payload)) {
    add(payload.parent);
    add(payload.requested_by);
    add(payload.to);
    if (Array.isArray(payload.on)) payload.on.forEach(add);
  }
  return refs;
}

/** The idempotency key of a raw event, when it has one that could have been stored. */
export const rawKey = (raw: unknown): string | undefined =>
  isObject(raw) && typeof raw.key === 'string' ? raw.key : undefined;
