import { describe, expect, it } from 'vitest';
import { cellWidth, fit, fitRight } from '../../src/dashboard/cells.js';

describe('cellWidth', () => {
  it.each([
    ['plain ASCII', 'hello', 5],
    ['the state glyphs, one cell each', '✻∙✓✗◆', 5],
    ['CJK ideographs, two cells each', '世界', 4],
    ['Hangul and fullwidth forms', '한Ａ', 4],
    ['an emoji with emoji presentation', '🚀', 2],
    ['a text-style symbol made emoji by VS16', '❤️', 2],
    ['a combining accent takes no cell', 'e\u0301', 1],
    ['a ZWJ family is one wide cluster', '👩‍👩‍👧', 2],
    ['a control character shows as one space', 'a\tb', 3],
    ['the empty string', '', 0],
    ['every printable ASCII character, one cell each', Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join(''), 95],
    ['DEL, a control character, as one space', 'a\x7fb', 3],
  ])('measures %s', (_title, text, width) => {
    expect(cellWidth(text)).toBe(width);
  });

  it('measures a short text the same when asked again (its width is kept)', () => {
    expect([cellWidth('› ✻◆ '), cellWidth('› ✻◆ ')]).toEqual([5, 5]);
    expect([cellWidth('世界'), cellWidth('世界')]).toEqual([4, 4]);
  });

  it('keeps measuring right after more distinct texts than it keeps', () => {
    for (let i = 0; i < 3000; i++) expect(cellWidth(`✻${i}`)).toBe(1 + String(i).length);
    expect(cellWidth('世界')).toBe(4);
  });
});

describe('fit', () => {
  it.each([
    ['pads a short text', 'ab', 5, 'ab   '],
    ['keeps a text of exactly the width', 'abcde', 5, 'abcde'],
    ['cuts a long text with an ellipsis', 'abcdefgh', 5, 'abcd…'],
    ['never splits a wide character: the ellipsis follows, a space pads', '世界世界', 6, '世界… '],
    ['keeps a combining mark with its base', 'e\u0301e\u0301e\u0301', 2, 'e\u0301…'],
    ['gives nothing for width 0', 'abc', 0, ''],
    ['gives only the ellipsis for width 1', 'abc', 1, '…'],
    ['replaces control characters, which would move the cursor', 'a\x1b[2Jb', 6, 'a [2Jb'],
  ])('%s', (_title, text, width, expected) => {
    const out = fit(text, width);
    expect(out).toBe(expected);
    expect(cellWidth(out)).toBe(width);
  });

  it('right-aligns in exactly the width', () => {
    expect(fitRight('3s', 4)).toBe('  3s');
    expect(fitRight('toolong', 4)).toBe('too…');
  });
});
