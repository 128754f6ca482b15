#!/usr/bin/env node
// `npm run bench` (after `npm run build`): run every `bench/*.bench.mjs`, or only those whose
// file name contains one of the arguments (`node bench/run.mjs capture`), print a table on
// stdout and write bench/results/latest.json. Exit 1 when a figure misses its target.
//
// `--smoke`: every figure with a handful of samples and no verdicts (a loaded machine's few
// samples prove nothing about a target), so that CI sees a figure that no longer runs. It
// writes bench/results/smoke.json and exits 1 when a bench file throws. `--report FILE`
// also writes a vitest-shaped JSON report (one passed test per figure, one failed test per
// bench file that threw) for CI's `N passed, N failed` line.
//
// Adding a figure: create `bench/<topic>.bench.mjs` importing the built code from `../dist/…`
// and exporting
//
//   export async function run({ smoke }) {   // smoke: true → take a handful of samples
//     return [{ figure: 'what is measured', unit: 'ms', samples: [/* one number per trial */],
//               baseline: [/* the baseline's samples, same run */] /* or one number, or null */,
//               target: 50 /* or null, { ratio: 1.5 }, { over: 50 }, { max: 100 }, { p95: 100 }, { mean: 1 } */,
//               note: 'optional: how it was measured' }];
//   }
//
// This runner computes median, p95 (nearest rank) and min–max of the samples, the baseline's
// median, ratio = median / baseline and over = median − baseline. Targets: a number N means
// median ≤ N; { ratio: X } median/baseline ≤ X; { over: N } median − baseline ≤ N;
// { max: N } the largest sample ≤ N; { p95: N } the p95 ≤ N; { mean: N } their mean ≤ N
// (equal windows: the average).
// Verdict `pass`, `FAIL`, or `info` without a target.
// Progress goes to stderr.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { smoke, reportFile, filters } = parseArgs(process.argv.slice(2));

function parseArgs(args) {
  const parsed = { smoke: false, reportFile: null, filters: [] };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--smoke') parsed.smoke = true;
    else if (args[i] === '--report' && args[i + 1] !== undefined) parsed.reportFile = args[++i];
    else if (args[i].startsWith('-')) {
      console.error(`bench: unknown option ${args[i]} (use --smoke, --report FILE, or words of file names)`);
      process.exit(2);
    } else parsed.filters.push(args[i]);
  }
  return parsed;
}
const modules = readdirSync(here)
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();
if (modules.length === 0) {
  console.error(`bench: no bench/*.bench.mjs matches ${filters.join(' ') || '(all)'}`);
  process.exit(2);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

const round = (value) => (value === null || value === undefined ? null : Math.round(value * 1000) / 1000);

const fmt = (value) => (value === null ? '-' : String(value));

function verdictOf(target, { med, max, mean, p95, baseline }) {
  if (target === null) return { text: null, value: null, pass: null };
  if (typeof target === 'number') return { text: `≤ ${target}`, value: med, pass: med <= target };
  if ('max' in target) return { text: `max ≤ ${target.max}`, value: max, pass: max <= target.max };
  if ('p95' in target) return { text: `p95 ≤ ${target.p95}`, value: p95, pass: p95 <= target.p95 };
  if ('mean' in target) return { text: `mean ≤ ${target.mean}`, value: mean, pass: mean <= target.mean };
  if (baseline === null) throw new Error(`a ${Object.keys(target)[0]} target needs a baseline`);
  if ('ratio' in target) return { text: `ratio ≤ ${target.ratio}`, value: med / baseline, pass: med / baseline <= target.ratio };
  if ('over' in target) return { text: `≤ +${target.over} over base`, value: med - baseline, pass: med - baseline <= target.over };
  throw new Error(`unknown target ${JSON.stringify(target)}`);
}

const entries = [];
const notes = [];
const broken = [];
for (const name of modules) {
  console.error(`bench: ${name} …${smoke ? ' (smoke)' : ''}`);
  const started = Date.now();
  let figures;
  try {
    const mod = await import(pathToFileURL(join(here, name)).href);
    figures = await mod.run({ smoke });
    for (const f of figures) {
      if (!Array.isArray(f.samples) || f.samples.length === 0) throw new Error(`figure "${f.figure}" has no samples`);
      if (f.samples.some((v) => typeof v !== 'number' || !Number.isFinite(v))) throw new Error(`figure "${f.figure}" has a sample that is not a number`);
    }
  } catch (error) {
    console.error(`bench: ${name} failed: ${error instanceof Error ? error.stack : error}`);
    broken.push({ name, error: error instanceof Error ? error.message : String(error) });
    continue;
  }
  for (const f of figures) {
    const med = median(f.samples);
    const baseSamples = Array.isArray(f.baseline) ? f.baseline : null;
    const baseline = baseSamples ? median(baseSamples) : (f.baseline ?? null);
    const target = smoke ? null : (f.target ?? null);
    const max = Math.max(...f.samples);
    const mean = f.samples.reduce((a, b) => a + b, 0) / f.samples.length;
    const verdict = verdictOf(target, { med, max, mean, p95: percentile(f.samples, 95), baseline });
    entries.push({
      figure: f.figure,
      unit: f.unit ?? 'ms',
      n: f.samples.length,
      median: round(med),
      mean: round(mean),
      p95: round(percentile(f.samples, 95)),
      min: round(Math.min(...f.samples)),
      max: round(max),
      baseline: round(baseline),
      baselineN: baseSamples ? baseSamples.length : null,
      baselineP95: baseSamples ? round(percentile(baseSamples, 95)) : null,
      ratio: baseline ? round(med / baseline) : null,
      over: baseline === null ? null : round(med - baseline),
      target: verdict.text,
      verdict: verdict.pass === null ? 'info' : verdict.pass ? 'pass' : 'FAIL',
      note: f.note ?? null,
    });
    if (f.note) notes.push(`${f.figure}: ${f.note}`);
  }
  console.error(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const short = (v) => (v === null ? null : Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 10) / 10);
const columns = ['figure', 'unit', 'n', 'median', 'p95', 'min–max', 'baseline', 'ratio', 'over', 'target', 'verdict'];
const row = (e) => [
  e.figure, e.unit, String(e.n), fmt(short(e.median)), fmt(short(e.p95)), `${short(e.min)}–${short(e.max)}`,
  fmt(short(e.baseline)), e.ratio === null ? '-' : e.ratio.toFixed(2), fmt(short(e.over)), e.target ?? '-', e.verdict,
];
const cells = [columns, ...entries.map(row)];
const widths = columns.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
for (const [i, r] of cells.entries()) {
  console.log(r.map((cell, j) => (j === 0 || j === 9 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join('  ').trimEnd());
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
if (notes.length > 0) console.log(`\n${notes.map((n) => `- ${n}`).join('\n')}`);

if (broken.length > 0) console.log(`\n${broken.map((b) => `- BROKEN ${b.name}: ${b.error}`).join('\n')}`);

const results = join(here, 'results');
mkdirSync(results, { recursive: true });
const resultName = smoke ? 'smoke.json' : 'latest.json';
const report = { date: new Date().toISOString(), node: process.version, platform: `${process.platform}-${process.arch}`, smoke, entries, broken };
writeFileSync(join(results, resultName), `${JSON.stringify(report, null, 2)}\n`);
console.error(`bench: wrote ${join('bench', 'results', resultName)}`);
if (reportFile !== null) {
  const missed = entries.filter((e) => e.verdict === 'FAIL').length;
  const failed = broken.length + missed;
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, `${JSON.stringify({ numPassedTests: entries.length - missed, numFailedTests: failed, success: failed === 0 })}\n`);
}
process.exitCode = broken.length > 0 || entries.some((e) => e.verdict === 'FAIL') ? 1 : 0;
