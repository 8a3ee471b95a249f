import fc from 'fast-check';
import { JSON_TEXTS_SEPARATOR, jsonTexts } from './json-texts';

/** What jsonTexts sends: the texts joined by the separator, a null as an empty field, in UTF-8. */
const joined = (texts: (string | null)[]): Buffer =>
  Buffer.from(texts.map((t) => t ?? '').join(JSON_TEXTS_SEPARATOR), 'utf8');

describe('jsonTexts', () => {
  it('is the UTF-8 of the joined texts, ASCII or not, wherever a non-ASCII text comes', () => {
    const text = fc.oneof(
      fc.json(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: fc.constantFrom('a', 'é', '€', '\u{1F600}', '\ud800') }),
    );
    fc.assert(
      fc.property(fc.array(fc.option(text, { nil: null })), (texts) => {
        expect(jsonTexts(texts).equals(joined(texts))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('fits texts whose last characters are wider than the room left for them', () => {
    for (const texts of [
      [],
      [null],
      ['é'],
      ['\u{1F600}'],
      ['a'.repeat(999) + '€', null, 'b'],
      ['x', '€€€€'],
    ])
      expect(jsonTexts(texts).equals(joined(texts))).toBe(true);
  });
});
