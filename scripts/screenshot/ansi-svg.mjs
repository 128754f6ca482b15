// A terminal screen, as `tmux capture-pane -e -p` prints it (text with SGR colour sequences),
// drawn as an SVG. @xterm/headless (the terminal emulator of xterm.js, run without a browser)
// interprets the escape sequences into cells — width, colours, bold, inverse — so the picture
// has tmux's own layout; this file only writes those cells out. Each word is placed at its own
// column, so a viewer's fallback font for a glyph (✻ ❯ ⚑) cannot shift what follows.
import xterm from '@xterm/headless';

/**
 * @typedef {{ chars: string, width: number, fg: string, bg: string | null, bold: boolean, dim: boolean, italic: boolean, underline: boolean }} Cell
 * A cell with its colours resolved (inverse applied): `bg` null is the screen's background.
 */

/** The xterm palette's first 16 colours, as a dark terminal theme draws them. */
export const THEME = {
  background: '#1e1e2e',
  foreground: '#d4d4d4',
  title: '#8a8a9a',
  ansi: ['#1e1e2e', '#f0524f', '#5ccf6b', '#e5c34b', '#5a9ef0', '#c678dd', '#4fc1d1', '#d4d4d4', '#6b6b7b', '#ff6e6b', '#7ee787', '#f9d74a', '#79b8ff', '#d2a8ff', '#76e3ea', '#ffffff'],
};

const CUBE = [0, 95, 135, 175, 215, 255];
const hex = (/** @type {number[]} */ rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** A 256-colour palette index as #rrggbb: the theme's 16, the 6×6×6 cube, the grey ramp. */
export function paletteColour(index, theme = THEME) {
  if (index < 16) return theme.ansi[index] ?? theme.foreground;
  if (index < 232) {
    const i = index - 16;
    return hex([CUBE[Math.floor(i / 36)] ?? 0, CUBE[Math.floor(i / 6) % 6] ?? 0, CUBE[i % 6] ?? 0]);
  }
  const grey = 8 + (index - 232) * 10;
  return hex([grey, grey, grey]);
}

/**
 * The screen `ansi` draws on a terminal of `cols` × `rows`, as rows of cells. Lines are
 * capture-pane's: separated by \n, each starting at column 0.
 * @param {string} ansi
 * @param {{ cols: number, rows: number, theme?: typeof THEME }} size
 * @returns {Promise<Cell[][]>}
 */
export async function screenCells(ansi, { cols, rows, theme = THEME }) {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const lines = ansi.replace(/\n$/, '').split('\n').slice(0, rows);
  await new Promise((resolve) => term.write(lines.join('\r\n'), () => resolve(undefined)));
  const buffer = term.buffer.active;
  const cell = buffer.getNullCell();
  /** @param {'Fg' | 'Bg'} which */
  const colourOf = (which) => {
    if (cell[`is${which}Default`]()) return null;
    const value = cell[`get${which}Color`]();
    return cell[`is${which}RGB`]() ? hex([(value >> 16) & 255, (value >> 8) & 255, value & 255]) : paletteColour(value, theme);
  };
  /** @type {Cell[][]} */
  const screen = [];
  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    /** @type {Cell[]} */
    const row = [];
    for (let x = 0; x < cols; x++) {
      if (!line?.getCell(x, cell)) break;
      let fg = colourOf('Fg');
      let bg = colourOf('Bg');
      if (cell.isInverse()) [fg, bg] = [bg ?? theme.background, fg ?? theme.foreground];
      row.push({
        chars: cell.getChars(),
        width: cell.getWidth(),
        fg: fg ?? theme.foreground,
        bg,
        bold: cell.isBold() !== 0,
        dim: cell.isDim() !== 0,
        italic: cell.isItalic() !== 0,
        underline: cell.isUnderline() !== 0,
      });
    }
    screen.push(row);
  }
  term.dispose();
  return screen;
}

const escapeXml = (/** @type {string} */ text) => text.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);

const styleKey = (/** @type {Cell} */ c) => `${c.fg}|${c.bold}|${c.dim}|${c.italic}|${c.underline}`;

/**
 * One row as words: runs of non-space cells of one style, each with the column it starts at;
 * a glyph outside ASCII is a word of its own (its width is the terminal's, not the font's).
 * @param {Cell[]} row
 * @returns {{ col: number, text: string, cell: Cell }[]}
 */
export function wordsOf(row) {
  /** @type {{ col: number, text: string, cell: Cell }[]} */
  const words = [];
  let current = null;
  for (let x = 0; x < row.length; x++) {
    const c = /** @type {Cell} */ (row[x]);
    if (c.width === 0) continue; // the right half of a wide glyph
    const ch = c.chars === '' ? ' ' : c.chars;
    const plain = /^[\x21-\x7e]$/.test(ch);
    if (ch === ' ' || !plain || current === null || styleKey(current.cell) !== styleKey(c)) current = null;
    if (ch === ' ') continue;
    if (current === null) {
      current = { col: x, text: '', cell: c };
      words.push(current);
    }
    current.text += ch;
    if (!plain) current = null;
  }
  return words;
}

/**
 * The cells as an SVG: a dark window with a title, backgrounds as rects, words as text.
 * @param {Cell[][]} screen
 * @param {{ title?: string, theme?: typeof THEME, fontSize?: number }} [opts]
 */
export function cellsToSvg(screen, { title = '', theme = THEME, fontSize = 14 } = {}) {
  const cw = Math.round(fontSize * 0.6 * 100) / 100;
  const lh = Math.round(fontSize * 1.35 * 100) / 100;
  const pad = 12;
  const top = title === '' ? pad : pad + 26;
  const cols = Math.max(0, ...screen.map((row) => row.length));
  const width = Math.ceil(cols * cw + 2 * pad);
  const height = Math.ceil(screen.length * lh + top + pad);
  const n = (/** @type {number} */ v) => String(Math.round(v * 100) / 100);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img"${title === '' ? '' : ` aria-label="${escapeXml(title)}"`}>`,
    `<rect width="${width}" height="${height}" rx="8" fill="${theme.background}"/>`,
  ];
  if (title !== '') {
    out.push(
      ...['#ff5f57', '#febc2e', '#28c840'].map((fill, i) => `<circle cx="${pad + 6 + i * 20}" cy="${pad + 6}" r="6" fill="${fill}"/>`),
      `<text x="${n(width / 2)}" y="${pad + 11}" fill="${theme.title}" font-family="sans-serif" font-size="12" text-anchor="middle">${escapeXml(title)}</text>`,
    );
  }
  out.push(`<g fill="${theme.foreground}" font-family="'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace" font-size="${fontSize}">`);
  screen.forEach((row, y) => {
    const rowTop = top + y * lh;
    // Backgrounds: runs of one colour, one rect each.
    for (let x = 0; x < row.length; ) {
      const bg = row[x]?.bg ?? null;
      let end = x + 1;
      while (end < row.length && (row[end]?.bg ?? null) === bg) end += 1;
      if (bg !== null) out.push(`<rect x="${n(pad + x * cw)}" y="${n(rowTop)}" width="${n((end - x) * cw)}" height="${n(lh)}" fill="${bg}"/>`);
      x = end;
    }
    const baseline = rowTop + lh * 0.76;
    for (const word of wordsOf(row)) {
      const { cell } = word;
      const attrs = [`x="${n(pad + word.col * cw)}"`, `y="${n(baseline)}"`];
      if (cell.fg !== theme.foreground) attrs.push(`fill="${cell.fg}"`);
      if (cell.bold) attrs.push('font-weight="bold"');
      if (cell.dim) attrs.push('opacity="0.6"');
      if (cell.italic) attrs.push('font-style="italic"');
      if (cell.underline) attrs.push('text-decoration="underline"');
      out.push(`<text ${attrs.join(' ')}>${escapeXml(word.text)}</text>`);
    }
  });
  out.push('</g>', '</svg>');
  return `${out.join('\n')}\n`;
}

/**
 * A captured pane as an SVG.
 * @param {string} ansi capture-pane -e -p output
 * @param {{ cols: number, rows: number, title?: string, theme?: typeof THEME }} opts
 */
export async function ansiToSvg(ansi, opts) {
  return cellsToSvg(await screenCells(ansi, opts), opts);
}
