const utf8 = new TextEncoder();

const isAscii = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
};

/** jsonb's order of object keys: shorter (in UTF-8 bytes) first, then byte by byte. */
export function compareJsonbKeys(a: string, b: string): number {
  if (isAscii(a) && isAscii(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** `out[key] = value`, also for a key named `__proto__` (an own property, as JSON.parse makes). */
export const putOwn = <T>(out: Record<string, T>, key: string, value: T): void => {
  if (key === '__proto__')
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else out[key] = value;
};

/**
 * `value` with every object's keys in the order a jsonb column gives them back (see
 * compareJsonbKeys; JavaScript still puts integer-like keys first, as `JSON.parse` of the jsonb
 * text does). JSON built from it is byte for byte what stringifying a read of the stored jsonb
 * gives. Returns `value` itself when nothing needs reordering (values read from jsonb).
 */
export function inJsonbOrder<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      const y = inJsonbOrder(x);
      if (y !== x) (copy ??= value.slice())[i] = y;
    }
    return (copy ?? value) as T;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++)
    sorted = compareJsonbKeys(keys[i - 1]!, keys[i]!) <= 0;
  let out: Record<string, unknown> | null = null;
  if (!sorted) {
    out = {};
    for (const k of keys.sort(compareJsonbKeys)) putOwn(out, k, inJsonbOrder(obj[k]));
    return out as T;
  }
  for (const k of keys) {
    const v = obj[k];
    if (v === null || typeof v !== 'object') continue;
    const w = inJsonbOrder(v);
    if (w !== v) putOwn((out ??= { ...obj }), k, w);
  }
  return (out ?? value) as T;
}
