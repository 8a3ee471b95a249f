/**
 * A character no JSON text holds as it is (JSON.stringify escapes every control character), so
 * JSON texts joined by it split back into exactly those texts.
 */
export const JSON_TEXTS_SEPARATOR = '\x1e';
const SEPARATOR_BYTE = 0x1e;
/** The most UTF-8 bytes one character takes. */
const MAX_CHAR_BYTES = 4;

/**
 * JSON texts (each as JSON.stringify writes it) as the UTF-8 bytes of one text for
 * `string_to_table($1::text, JSON_TEXTS_SEPARATOR, '')`: a null becomes an empty field, which that
 * reads back as null. A Buffer travels as a binary parameter (a text's binary form is its bytes):
 * each text is encoded once, straight into it, with no joined string built first.
 *
 * Sized first as if every text were ASCII (a byte per UTF-16 unit, the least UTF-8 takes), which
 * walks no text; with room for one more character left over, a text wrote as many bytes as it has
 * units only when it is ASCII. From the first text that did not, the rest is sized exactly.
 */
export function jsonTexts(texts: readonly (string | null)[]): Buffer {
  let size = Math.max(texts.length - 1, 0) + MAX_CHAR_BYTES;
  for (const t of texts) if (t) size += t.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) out[at++] = SEPARATOR_BYTE;
    const t = texts[i];
    if (!t) continue;
    const written = out.write(t, at);
    if (written !== t.length) return exactFrom(out, at, texts, i);
    at += written;
  }
  return out.subarray(0, at);
}

/** `prefix`'s first `at` bytes, then texts[from…] sized exactly. */
function exactFrom(
  prefix: Buffer,
  at: number,
  texts: readonly (string | null)[],
  from: number,
): Buffer {
  let size = at + texts.length - 1 - from;
  for (let i = from; i < texts.length; i++) {
    const t = texts[i];
    if (t) size += Buffer.byteLength(t);
  }
  const out = Buffer.allocUnsafe(size);
  prefix.copy(out, 0, 0, at);
  for (let i = from; i < texts.length; i++) {
    if (i > from) out[at++] = SEPARATOR_BYTE;
    const t = texts[i];
    if (t) at += out.write(t, at);
  }
  return out;
}
