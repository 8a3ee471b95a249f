/**
 * A character no JSON text holds as it is (JSON.stringify escapes every control character), so
 * JSON texts joined by it split back into exactly those texts.
 */
export const JSON_TEXTS_SEPARATOR = '\x1e';
const SEPARATOR_BYTE = 0x1e;

/**
 * JSON texts (each as JSON.stringify writes it) as the UTF-8 bytes of one text for
 * `string_to_table($1::text, JSON_TEXTS_SEPARATOR, '')`: a null becomes an empty field, which that
 * reads back as null. A Buffer travels as a binary parameter (a text's binary form is its bytes):
 * each text is encoded once, straight into it, with no joined string built first.
 */
export function jsonTexts(texts: readonly (string | null)[]): Buffer {
  let size = Math.max(texts.length - 1, 0);
  for (const t of texts) if (t !== null) size += Buffer.byteLength(t);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) out[at++] = SEPARATOR_BYTE;
    const t = texts[i];
    if (t) at += out.write(t, at);
  }
  return out;
}
