/**
 * What a parsed payload costs to store, in characters: the length of every string in it, field
 * names included (a number or boolean counts 1). Only called on payloads that passed the shape
 * check, so nesting is shallow.
 */
export function payloadText(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) {
    let n = 0;
    for (const item of value) n += payloadText(item);
    return n;
  }
  if (typeof value === 'object' && value !== null) {
    let n = 0;
    for (const [name, item] of Object.entries(value)) n += name.length + payloadText(item);
    return n;
  }
  return 1;
}
