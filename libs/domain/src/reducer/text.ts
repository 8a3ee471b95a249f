export const HEADLINE_MAX = 120;
export const MESSAGE_TEXT_MAX = 2_000;

/** The first `max` UTF-16 units of `text`, never ending in half of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const endsInHighSurrogate = code >= 0xd800 && code <= 0xdbff;
  return text.slice(0, endsInHighSurrogate ? max - 1 : max);
}

/** First non-blank line of `summary`, trimmed and cut to 120 characters; null when blank. */
export function headlineOf(summary: string): string | null {
  const start = summary.search(/\S/);
  if (start < 0) return null;
  const rest = summary.slice(start, start + HEADLINE_MAX + 1);
  const lineEnd = rest.search(/[\r\n]/);
  return cutText(lineEnd < 0 ? rest : rest.slice(0, lineEnd), HEADLINE_MAX).trimEnd();
}
