const NON_ASCII = /[^\p{ASCII}]/u;
const utf8 = new TextEncoder();

/** jsonb's order of object keys: shorter (in UTF-8 bytes) first, then byte by byte. */
export function compareJsonbKeys(a: string, b: string): number {
  if (!NON_ASCII.test(a) && !NON_ASCII.test(b))
    return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/**
 * `value` with every object's keys in the order a jsonb column gives them back (see
 * compareJsonbKeys; JavaScript still puts integer-like keys first, as `JSON.parse` of the jsonb
 * text does). JSON built from it is byte for byte what stringifying a read of the stored jsonb
 * gives. Returns `value` itself when nothing needs reordering.
 */
export function inJsonbOrder<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((x: unknown, i) => {
      const y = inJsonbOrder(x);
      if (y !== x) (copy ??= value.slice())[i] = y;
    });
    return (copy ?? value) as T;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let changed = false;
  const values = keys.map((k, i) => {
    if (i > 0 && compareJsonbKeys(keys[i - 1]!, k) > 0) changed = true;
    const v = obj[k];
    const w = inJsonbOrder(v);
    if (w !== v) changed = true;
    return w;
  });
  if (!changed) return value;
  const byKey = new Map(keys.map((k, i) => [k, values[i]]));
  const out: Record<string, unknown> = {};
  for (const k of [...keys].sort(compareJsonbKeys))
    Object.defineProperty(out, k, {
      value: byKey.get(k),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out as T;
}
