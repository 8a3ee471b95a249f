export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-empty string, else undefined. */
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.length > 0 ? v : undefined;

/** A time as ms since the epoch from an ISO string or a number of ms; undefined when neither. */
export function timeOf(v: unknown): number | undefined {
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) && ms >= 0 ? Math.trunc(ms) : undefined;
}

/** Parses one JSONL line as an object; `blank` for an empty line. */
export function parseJsonLine(text: string): Json | 'blank' | undefined {
  if (text.trim() === '') return 'blank';
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
