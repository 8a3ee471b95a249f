import { parameterInvalid, parameterUnknown } from '@graph-history/http';

/** `expand`, `expand[]` and `expand[3]` are one list parameter, shown as `expand[]`. */
const LIST_NAME = /^(expand)(\[\d*\])?$/;

/**
 * The query string of one request, read from the raw URL so repeated parameters and `expand[]`
 * lists keep their order. Endpoints declare the names they accept; anything else is refused.
 */
export class QueryParams {
  private readonly values = new Map<string, string[]>();

  constructor(rawUrl: string) {
    const q = rawUrl.indexOf('?');
    if (q < 0) return;
    for (const [rawName, value] of new URLSearchParams(rawUrl.slice(q + 1))) {
      const list = LIST_NAME.exec(rawName);
      const name = list ? `${list[1]}[]` : rawName;
      const seen = this.values.get(name);
      if (seen) seen.push(value);
      else this.values.set(name, [value]);
    }
  }

  /** Throws `parameter_unknown` for the first parameter not in `allowed`. */
  allowOnly(allowed: readonly string[]): this {
    for (const name of this.values.keys())
      if (!allowed.includes(name)) throw parameterUnknown(name);
    return this;
  }

  /** A parameter given at most once; repeating it is `parameter_invalid`. */
  scalar(name: string): string | undefined {
    const v = this.values.get(name);
    if (!v) return undefined;
    if (v.length > 1)
      throw parameterInvalid(name, `${name} was given ${v.length} times; send it once.`);
    return v[0];
  }

  list(name: string): string[] {
    return this.values.get(name) ?? [];
  }
}
