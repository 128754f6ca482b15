// The README picture's renderer (scripts/screenshot/ansi-svg.mjs): a captured pane's cells,
// drawn as SVG text placed by column. No tmux: the input is capture-pane-shaped text.
import { describe, expect, it } from 'vitest';
import { ansiToSvg, paletteColour, screenCells, THEME, wordsOf } from '../../scripts/screenshot/ansi-svg.mjs';

const texts = (svg: string) => [...svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)].map((m) => ({ attrs: m[1] ?? '', text: m[2] ?? '' }));
const x = (attrs: string) => Number(/\bx="([\d.]+)"/.exec(attrs)?.[1]);
const CW = 14 * 0.6;

describe('screenCells', () => {
  it('reads colours, bold and inverse the way tmux captured them', async () => {
    const [row] = await screenCells('\x1b[1;31mred\x1b[0m \x1b[7minv\x1b[0m \x1b[38;5;208mo\x1b[38;2;1;2;3mr', { cols: 20, rows: 1 });
    expect(row?.slice(0, 3).map((c) => [c.chars, c.fg, c.bold])).toEqual([['r', THEME.ansi[1], true], ['e', THEME.ansi[1], true], ['d', THEME.ansi[1], true]]);
    // Inverse: the default colours swapped.
    expect(row?.[4]).toMatchObject({ chars: 'i', fg: THEME.background, bg: THEME.foreground });
    expect(row?.[8]).toMatchObject({ chars: 'o', fg: '#ff8700' });
    expect(row?.[9]).toMatchObject({ chars: 'r', fg: '#010203' });
  });

  it('starts every captured line at column 0 (capture-pane separates lines with a bare newline)', async () => {
    const screen = await screenCells('one\ntwo\n', { cols: 10, rows: 2 });
    expect(screen.map((row) => row.map((c) => c.chars || ' ').join('').trimEnd())).toEqual(['one', 'two']);
  });
});

describe('paletteColour', () => {
  it.each([
    [1, THEME.ansi[1]],
    [16, '#000000'],
    [21, '#0000ff'],
    [231, '#ffffff'],
    [232, '#080808'],
    [255, '#eeeeee'],
  ])('maps index %i to %s', (index, colour) => {
    expect(paletteColour(index)).toBe(colour);
  });
});

describe('the SVG', () => {
  it('escapes what a task prints', async () => {
    const svg = await ansiToSvg(`a<b>&"c'd </text><script>`, { cols: 40, rows: 1 });
    expect(svg).not.toContain('<script>');
    expect(texts(svg).map((t) => t.text)).toEqual(['a&lt;b&gt;&amp;&quot;c&apos;d', '&lt;/text&gt;&lt;script&gt;']);
  });

  it('places each word at its own column, and a glyph outside ASCII apart from its neighbours', async () => {
    const svg = await ansiToSvg('✻  claude   waiting', { cols: 30, rows: 1 });
    expect(texts(svg).map((t) => [t.text, Math.round((x(t.attrs) - 12) / CW)])).toEqual([['✻', 0], ['claude', 3], ['waiting', 12]]);
  });

  it('puts the word after a wide glyph two columns on', async () => {
    const svg = await ansiToSvg('漢字 ok', { cols: 10, rows: 1 });
    expect(texts(svg).map((t) => [t.text, Math.round((x(t.attrs) - 12) / CW)])).toEqual([['漢', 0], ['字', 2], ['ok', 5]]);
  });

  it('draws a background rect for an inverse run and colours its text', async () => {
    const svg = await ansiToSvg('\x1b[7m sel \x1b[0m', { cols: 10, rows: 1 });
    expect(svg).toMatch(new RegExp(`<rect x="12" y="[\\d.]+" width="${5 * CW}" height="[\\d.]+" fill="${THEME.foreground}"/>`));
    expect(texts(svg)).toEqual([{ attrs: expect.stringContaining(`fill="${THEME.background}"`), text: 'sel' }]);
  });

  it('keeps a style change inside a word apart', async () => {
    const [row] = await screenCells('ab\x1b[1mcd', { cols: 10, rows: 1 });
    expect(wordsOf(row ?? []).map((w) => [w.text, w.col, w.cell.bold])).toEqual([['ab', 0, false], ['cd', 2, true]]);
  });

  it('sizes the picture from the screen and names it in its title', async () => {
    const svg = await ansiToSvg('x', { cols: 80, rows: 3, title: 'fleetcom — demo' });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="(\d+)" height="(\d+)"/);
    expect(Number(/width="(\d+)"/.exec(svg)?.[1])).toBe(Math.ceil(80 * CW + 24));
    expect(svg).toContain('aria-label="fleetcom — demo"');
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  });
});
