import { cutText, headlineOf } from './text';

describe('headlineOf', () => {
  it('is the first non-blank line, trimmed', () => {
    expect(headlineOf('Fixing the parser\nDetails follow')).toBe('Fixing the parser');
    expect(headlineOf('\r\n   \n  Done.  \r\nmore')).toBe('Done.');
  });

  it('is null for a blank summary', () => {
    expect(headlineOf('')).toBeNull();
    expect(headlineOf(' \n\t ')).toBeNull();
  });

  it('is at most 120 characters and never splits a surrogate pair', () => {
    expect(headlineOf('a'.repeat(300))).toBe('a'.repeat(120));
    expect(headlineOf('a'.repeat(119) + '😀xyz')).toBe('a'.repeat(119));
    expect(headlineOf('😀'.repeat(70))).toBe('😀'.repeat(60));
  });
});

describe('cutText', () => {
  it('keeps short texts and cuts long ones at a code point boundary', () => {
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('abcd', 3)).toBe('abc');
    expect(cutText('ab😀', 3)).toBe('ab');
  });
});
