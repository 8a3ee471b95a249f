// eslint-disable-next-line no-control-regex -- NUL is exactly what must be found
const UNSTORABLE = /\u0000|\p{Cs}/gu;

/**
 * Makes transcript text storable and bounded: NUL and unpaired surrogates become U+FFFD (the
 * ingest endpoint refuses them) and the text is cut to `max` UTF-16 units without splitting a
 * surrogate pair; a cut text ends with `…`.
 */
export function cleanText(text: string, max: number): string {
  const clean = text.replace(UNSTORABLE, '\uFFFD');
  if (clean.length <= max) return clean;
  let end = max - 1;
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${clean.slice(0, end)}…`;
}

/** The first non-blank line of `text`, trimmed and cleaned; undefined when there is none. */
export function firstLine(text: string, max: number): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line === undefined ? undefined : cleanText(line, max);
}
