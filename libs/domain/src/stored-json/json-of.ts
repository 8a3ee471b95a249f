/** JSON text of a value; undefined where JSON.stringify leaves the value (or its key) out. */
export function jsonOf(value: unknown): string | undefined {
  // JSON.stringify's own text for these, without entering it (most changed values are numbers)
  if (typeof value === 'number') return Number.isFinite(value) ? `${value}` : 'null';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value) as string | undefined;
}
