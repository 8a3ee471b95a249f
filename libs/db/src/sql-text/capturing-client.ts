import { Client } from 'pg';

type SentQuery = { text?: string; name?: string };

/**
 * A pg Client class that hands the text of every query it sends to `sink` before sending it: the
 * final SQL, after Kysely compiled it and the statement helpers wrapped it, a named statement's
 * after a comment line naming it. Only `pnpm sql:sync` and its test build pools on it (pg's Pool
 * takes a `Client` option).
 */
export function capturingClient(sink: (text: string) => void): typeof Client {
  return class CapturingClient extends Client {
    override query(...args: unknown[]): never {
      const [q] = args;
      const { text, name } = typeof q === 'string' ? { text: q } : ((q ?? {}) as SentQuery);
      if (text !== undefined) sink(name ? `/* statement ${name} */\n${text}` : text);
      return (super.query as (...a: unknown[]) => never)(...args);
    }
  } as typeof Client;
}
