import { maskApiKey } from '@graph-history/domain';

/** Query parameters whose values are secrets whatever they look like. */
const SECRET_PARAM = /^(api_?key|key|token|access_token|secret|password|authorization)$/i;
/** Anything shaped like one of our keys, wherever it appears. */
const KEY_LIKE = /\b[sr]k_(?:live|test)_[A-Za-z0-9]+/g;

const maskKeys = (s: string): string => s.replace(KEY_LIKE, (k) => maskApiKey(k));

/**
 * A URL safe to log: values of secret-named query parameters (`api_key`, `token`, …) become
 * `[redacted]`, and any key-looking value elsewhere is masked like an error message masks it.
 */
export function redactRequestUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return maskKeys(url);
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name: string;
      try {
        name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '));
      } catch {
        name = pair.slice(0, eq);
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return maskKeys(`${url.slice(0, q)}?${query}`);
}
