/** The scalar types a Postgres array literal is built for here. */
export type ScalarType = 'bigint' | 'int' | 'text' | 'boolean';

/**
 * `values` as the text of a one-dimensional Postgres array (`{1,NULL,3}`, `{"a","b\"c"}`),
 * to be sent as one parameter and cast (`$1::bigint[]`). Cheaper than letting `pg` serialise a
 * JavaScript array, which prepares and escapes element by element.
 */
export function arrayLiteral(values: readonly unknown[], type: ScalarType): string {
  // the usual case, joined natively: integers, or texts that need no backslash, without nulls
  if ((type === 'bigint' || type === 'int') && values.every(isSafeInteger))
    return `{${values.join(',')}}`;
  if (type === 'text' && values.length > 0 && values.every(isPlainText))
    return `{"${values.join('","')}"}`;
  const element = ELEMENT[type];
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    out += v === null || v === undefined ? 'NULL' : element(v);
  }
  return out + '}';
}

const isSafeInteger = (v: unknown): boolean => Number.isSafeInteger(v);
const isPlainText = (v: unknown): boolean => typeof v === 'string' && !HAS_QUOTED_SPECIALS.test(v);

const QUOTED_SPECIALS = /["\\]/g;
const HAS_QUOTED_SPECIALS = /["\\]/;

const ELEMENT: Record<ScalarType, (v: unknown) => string> = {
  bigint: integer,
  int: integer,
  boolean: (v) => (v ? 't' : 'f'),
  // Inside double quotes only `"` and `\` need a backslash.
  text: (v) => {
    const s = String(v);
    return HAS_QUOTED_SPECIALS.test(s) ? `"${s.replace(QUOTED_SPECIALS, '\\$&')}"` : `"${s}"`;
  },
};

function integer(v: unknown): string {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+$/.test(v))) return String(v);
  throw new TypeError(`not an integer: ${String(v)}`);
}
