// Types of ansi-svg.mjs for the TypeScript tests (test/docs/ansi-svg.test.ts).
export interface Cell {
  chars: string;
  width: number;
  fg: string;
  bg: string | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}
export interface Theme {
  background: string;
  foreground: string;
  title: string;
  ansi: string[];
}
export const THEME: Theme;
export function paletteColour(index: number, theme?: Theme): string;
export function screenCells(ansi: string, size: { cols: number; rows: number; theme?: Theme }): Promise<Cell[][]>;
export function wordsOf(row: Cell[]): { col: number; text: string; cell: Cell }[];
export function cellsToSvg(screen: Cell[][], opts?: { title?: string; theme?: Theme; fontSize?: number }): string;
export function ansiToSvg(ansi: string, opts: { cols: number; rows: number; title?: string; theme?: Theme }): Promise<string>;
