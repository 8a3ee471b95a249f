import { Client } from 'pg';

export interface CapturedStatement {
  text: string;
  values: unknown[];
}

/**
 * Records every statement sent through node-postgres (Kysely's queries and the prepared ones both
 * end in Client#query) while started; `stop()` restores the client and returns one sample per text.
 */
export function captureStatements(): { stop(): CapturedStatement[] } {
  const original = Client.prototype.query;
  const seen = new Map<string, CapturedStatement>();
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const [first, second] = args as [unknown, unknown];
    const text = typeof first === 'string' ? first : (first as { text?: string })?.text;
    const values =
      (Array.isArray(second) ? second : (first as { values?: unknown[] })?.values) ?? [];
    if (typeof text === 'string' && !seen.has(text)) seen.set(text, { text, values });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
  return {
    stop() {
      Client.prototype.query = original;
      return [...seen.values()];
    },
  };
}
