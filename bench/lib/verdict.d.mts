// Types of verdict.mjs for the TypeScript tests (the main tsconfig does not check JavaScript).
export interface Figure {
  figure: string;
  unit?: string;
  samples: number[];
  baseline: number[] | number | null | undefined;
  target?: { ratio: number; of?: 'median' | 'mean' | 'p95' | 'max'; base?: 'median' | 'p95' } | null | Record<string, unknown>;
  note?: string;
}
export interface Entry {
  figure: string; unit: string; n: number; median: number; mean: number; p95: number; min: number; max: number;
  baseline: number; baselineN: number | null; baselineP95: number | null; ratioOf: string; ratio: number; over: number;
  target: string | null; verdict: 'pass' | 'FAIL' | 'info'; note: string | null;
}
export function median(values: number[]): number;
export function percentile(values: number[], p: number): number;
export function checkFigure(figure: Figure): void;
export function entryOf(figure: Figure, smoke: boolean): Entry;
