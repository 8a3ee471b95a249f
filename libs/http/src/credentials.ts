/**
 * The API key a request carries: `Authorization: Bearer <key>`, or Basic with the key as user name
 * and an empty password (a password is refused: it is not where a key goes).
 */
export type Credentials =
  | { kind: 'missing' }
  /** `unschemed`: the header has no `Bearer`/`Basic` scheme (e.g. the bare key). */
  | { kind: 'malformed'; shown: string; unschemed?: true }
  | { kind: 'key'; key: string };

const MAX_KEY_LENGTH = 256;

export function readCredentials(authorization: string | string[] | undefined): Credentials {
  if (authorization === undefined || authorization === '') return { kind: 'missing' };
  const header = Array.isArray(authorization) ? (authorization[0] ?? '') : authorization;
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if (scheme === 'bearer') {
    return value && value.length <= MAX_KEY_LENGTH
      ? { kind: 'key', key: value }
      : { kind: 'malformed', shown: value.slice(0, MAX_KEY_LENGTH) };
  }
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    const password = colon < 0 ? '' : decoded.slice(colon + 1);
    return user && user.length <= MAX_KEY_LENGTH && password === ''
      ? { kind: 'key', key: user }
      : { kind: 'malformed', shown: user.slice(0, MAX_KEY_LENGTH) };
  }
  return { kind: 'malformed', shown: header.slice(0, MAX_KEY_LENGTH), unschemed: true };
}
