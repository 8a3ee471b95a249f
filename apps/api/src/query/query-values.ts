import { parameterInvalid } from '@graph-history/http';
import { QueryParams } from './query-params';

const DIGITS = /^\d{1,16}$/;

/** An all-digit value as a safe integer, else NaN (no signs, exponents or decimals). */
export const digitsValue = (raw: string): number =>
  DIGITS.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : NaN;

/** An integer parameter within [min, max], or undefined when absent. */
export function readInteger(
  q: QueryParams,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = q.scalar(name);
  if (raw === undefined) return undefined;
  const n = digitsValue(raw);
  if (!(n >= min && n <= max)) {
    throw parameterInvalid(
      name,
      `${name} must be an integer from ${fmt(min)} to ${fmt(max)}; got ${quote(raw)}.`,
    );
  }
  return n;
}

/** A non-negative integer (a time in ms, a bound of a filter). */
export function readTime(q: QueryParams, name: string): number | undefined {
  const raw = q.scalar(name);
  if (raw === undefined) return undefined;
  const n = digitsValue(raw);
  if (Number.isNaN(n))
    throw parameterInvalid(name, `${name} must be a time in Unix milliseconds; got ${quote(raw)}.`);
  return n;
}

export function readEnum<T extends string>(
  q: QueryParams,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const raw = q.scalar(name);
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw parameterInvalid(
      name,
      `${name} must be one of ${allowed.join(', ')}; got ${quote(raw)}.`,
    );
  }
  return raw as T;
}

/** A required-to-be-non-empty string parameter (ids, cursors). */
export function readString(q: QueryParams, name: string): string | undefined {
  const raw = q.scalar(name);
  if (raw === '') throw parameterInvalid(name, `${name} is empty; give a value or leave it out.`);
  return raw;
}

export const quote = (s: string): string =>
  JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

const fmt = (n: number): string => n.toLocaleString('en-US');
