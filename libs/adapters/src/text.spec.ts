import { cleanText, firstLine } from './text';

describe('cleanText', () => {
  it('keeps short clean text as it is', () => {
    expect(cleanText('plain 😀 text', 50)).toBe('plain 😀 text');
  });

  it('cuts long text with an ellipsis within the limit', () => {
    const cut = cleanText('abcdefghij', 5);
    expect(cut).toBe('abcd…');
    expect(cut.length).toBeLessThanOrEqual(5);
  });

  it('never cuts a surrogate pair in half', () => {
    const cut = cleanText('abc😀def', 5);
    expect(cut).toBe('abc…');
    expect(/\p{Cs}/u.test(cut)).toBe(false);
  });

  it('replaces NUL and unpaired surrogates', () => {
    expect(cleanText('a\u0000b\udc00c', 20)).toBe('a\uFFFDb\uFFFDc');
  });
});

describe('firstLine', () => {
  it('returns the first non-blank line, trimmed', () => {
    expect(firstLine('\n   \n  Hello there  \nsecond', 100)).toBe('Hello there');
  });

  it('is undefined for blank text', () => {
    expect(firstLine(' \n\t\n', 100)).toBeUndefined();
  });
});
