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
