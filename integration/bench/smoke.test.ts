// The bench runner's smoke mode as CI runs it: a figure runs with a handful of samples, gets
// no verdict, and counts in a vitest-shaped report; each figure has its baseline and ratio.
// The capture figure also proves the bench still fits the resume core (its transcripts are
// bare `{"type":"user"}` records). Then the runner's rules: every figure has a baseline, and
// every goal is a ratio to it.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFigure, entryOf } from '../../bench/lib/verdict.mjs';
import { repoRoot } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const runBench = (args: string[], env: Record<string, string | undefined>) =>
  execa(process.execPath, [join(repoRoot, 'bench', 'run.mjs'), ...args], { env, extendEnv: false, cwd: repoRoot, reject: false, timeout: 60_000 });

describe('npm run bench -- --smoke', () => {
  it('runs every figure of a bench file without verdicts, each with its baseline and ratio, and reports each as a passed test', async () => {
    const sb = await useSandbox();
    const report = join(sb.dir, 'reports', 'bench.json');
    const r = await runBench(['--smoke', '--report', report, 'capture-latency'], { ...sb.env, TMPDIR: sb.dir });
    expect(r.stderr).not.toContain('failed');
    expect(r.exitCode).toBe(0);
    const figures = String(r.stdout).split('\n').filter((line) => line.startsWith('capture:'));
    expect(figures).toHaveLength(3);
    for (const line of figures) {
      // figure, unit, n, median, p95, min–max, baseline, ratio, over, target, verdict
      const cells = line.split(/ {2,}/);
      expect(cells.slice(1, 3), line).toEqual(['ms', '5']);
      expect(Number(cells[6]), `baseline of ${line}`).toBeGreaterThan(0);
      expect(Number(cells[7]), `ratio of ${line}`).toBeGreaterThan(0);
      expect(cells.slice(-2), line).toEqual(['-', 'info']);
    }
    const smoke = JSON.parse(readFileSync(join(repoRoot, 'bench', 'results', 'smoke.json'), 'utf8')) as { entries: Array<{ median: number; baseline: number; ratio: number }> };
    expect(smoke.entries).toHaveLength(3);
    for (const e of smoke.entries) {
      expect(e.baseline, JSON.stringify(e)).toBeGreaterThan(0);
      expect(Math.abs(e.ratio - e.median / e.baseline) / e.ratio, JSON.stringify(e)).toBeLessThan(0.01);
    }
    expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual({ numPassedTests: 3, numFailedTests: 0, success: true });
  });

  it('refuses an unknown option instead of running the full bench', async () => {
    const sb = await useSandbox();
    const r = await runBench(['--smok'], sb.env);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('unknown option --smok');
  });
});

describe('bench figures', () => {
  const figure = { figure: 'x', unit: 'ms', samples: [30, 10, 20] };

  it('refuses a figure without a baseline, and a goal that is not a ratio to it', () => {
    expect(() => checkFigure({ ...figure, baseline: null })).toThrow('figure "x" has no baseline');
    expect(() => checkFigure({ ...figure, baseline: [] })).toThrow('has no baseline');
    expect(() => checkFigure({ ...figure, baseline: [0] })).toThrow('a ratio to it means nothing');
    for (const target of [{ over: 30 }, { max: 100 }, { mean: 1 }, { p95: 100 }, { ratio: 2, of: 'min' }]) {
      expect(() => checkFigure({ ...figure, baseline: [10], target }), JSON.stringify(target)).toThrow('a goal is { ratio: X }');
    }
    expect(() => checkFigure({ ...figure, baseline: [10], target: { ratio: 2, of: 'p95', base: 'max' } })).toThrow('a goal is { ratio: X }');
    expect(() => checkFigure({ ...figure, baseline: 10, target: { ratio: 2, of: 'p95' } })).not.toThrow();
    expect(() => checkFigure({ ...figure, baseline: [10], target: { ratio: 2, of: 'p95', base: 'p95' } })).not.toThrow();
  });

  it('judges the median, or the statistic named, over the median of the baseline', () => {
    expect(entryOf({ ...figure, baseline: [5, 10, 100], target: { ratio: 2 } }, false)).toMatchObject({ baseline: 10, ratio: 2, ratioOf: 'median', over: 10, target: 'ratio ≤ 2', verdict: 'pass' });
    expect(entryOf({ ...figure, baseline: 10, target: { ratio: 2, of: 'max' } }, false)).toMatchObject({ ratio: 3, target: 'max ratio ≤ 2', verdict: 'FAIL' });
    expect(entryOf({ ...figure, baseline: 10, target: { ratio: 2, of: 'max' } }, true)).toMatchObject({ ratio: 3, target: null, verdict: 'info' });
    // A tail against a tail: the samples' p95 over the baseline's p95.
    expect(entryOf({ ...figure, baseline: [10, 10, 20], target: { ratio: 1.4, of: 'p95', base: 'p95' } }, false)).toMatchObject({ baseline: 20, ratio: 1.5, over: 10, target: 'p95 ratio ≤ 1.4 (to its p95)', verdict: 'FAIL' });
  });
});
