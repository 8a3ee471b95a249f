import { Client } from 'pg';

/**
 * A pg Client class that hands the text of every query it sends to `sink` before sending it: the
 * final SQL, after Kysely compiled it and the statement helpers named or wrapped it. Only
 * `pnpm sql:sync` and its test build pools on it (pg's Pool takes a `Client` option).
 */
export function capturingClient(sink: (text: string) => void): typeof Client {
  return class CapturingClient extends Client {
    override query(...args: unknown[]): never {
      const [q] = args;
      const text = typeof q === 'string' ? q : (q as { text?: string } | undefined)?.text;
      if (text !== undefined) sink(text);
      return (super.query as (...a: unknown[]) => never)(...args);
    }
  } as typeof Client;
}
