/**
 * A character no JSON text holds as it is (JSON.stringify escapes every control character), so
 * JSON texts joined by it split back into exactly those texts.
 */
export const JSON_TEXTS_SEPARATOR = '\x1e';

/**
 * JSON texts (each as JSON.stringify writes it) as one text for `string_to_table(text,
 * JSON_TEXTS_SEPARATOR, '')`: a null becomes an empty field, which that reads back as null.
 */
export const jsonTexts = (texts: readonly (string | null)[]): string =>
  texts.map((t) => t ?? '').join(JSON_TEXTS_SEPARATOR);
