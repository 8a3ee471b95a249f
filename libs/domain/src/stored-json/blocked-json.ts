import { jsonOf } from './json-of';

/** The members of a presented Node's `blocked`, in jsonb's key order (see compareJsonbKeys). */
const KEYS = ['cycle', 'on_ids', 'starting', 'node_count', 'open_tasks'] as const;
const KEY_JSON = KEYS.map((k) => `${JSON.stringify(k)}:`);

/**
 * `JSON.stringify(inJsonbOrder(blocked))` of a `blocked` as presentNode builds it (those members
 * only, `on_ids` an array of strings, the others no objects), written without the reordered copy;
 * undefined for any other value.
 */
export function blockedJson(blocked: object): string | undefined {
  const b = blocked as Record<string, unknown>;
  if (Array.isArray(b) || Object.keys(b).length !== KEYS.length) return undefined;
  let json = '';
  for (let i = 0; i < KEYS.length; i++) {
    const key = KEYS[i]!;
    if (!Object.hasOwn(b, key)) return undefined;
    const v = b[key];
    let text: string | undefined;
    if (key === 'on_ids') {
      if (!Array.isArray(v) || !v.every((id) => typeof id === 'string')) return undefined;
      text = JSON.stringify(v);
    } else {
      if (typeof v === 'object' && v !== null) return undefined;
      text = jsonOf(v);
    }
    if (text !== undefined) json += (json === '' ? '' : ',') + KEY_JSON[i]! + text;
  }
  return `{${json}}`;
}
