import { InvalidArgumentError } from 'commander';

/** Commander argument parser for an integer in [min, max]. */
export const integerIn =
  (min: number, max: number) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}.`);
    }
    return n;
  };

/** Binary size suffixes a bytes quota may carry (`10GiB`). */
export const BYTE_UNITS: Record<string, number> = {
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  TiB: 1024 ** 4,
};

/**
 * Commander argument parser for a quota: a positive integer up to `max`, optionally followed by
 * one of `units` (e.g. `10GiB`), or `default` (the deployment's default; commander keeps no null).
 */
export const quotaValue =
  (max: number, units: Record<string, number> = {}) =>
  (value: string): number | 'default' => {
    const text = value.trim();
    if (text === 'default') return text;
    const match = /^(\d+)([A-Za-z]*)$/.exec(text);
    const unit = match?.[2] ? units[match[2]] : 1;
    const n = match && unit !== undefined ? Number(match[1]) * unit : NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > max) {
      const suffixes = Object.keys(units).length
        ? ` (suffixes: ${Object.keys(units).join(', ')})`
        : '';
      throw new InvalidArgumentError(
        `expected an integer from 1 to ${max.toLocaleString('en-US')}${suffixes}, or "default".`,
      );
    }
    return n;
  };
