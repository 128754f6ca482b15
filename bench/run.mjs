#!/usr/bin/env node
// `npm run bench` (after `npm run build`): run every `bench/*.bench.mjs`, or only those whose
// file name contains one of the arguments (`node bench/run.mjs capture`), print a table on
// stdout and write bench/results/latest.json. Exit 1 when a figure misses its target.
//
// Adding a figure: create `bench/<topic>.bench.mjs` importing the built code from `../dist/…`
// and exporting
//
//   export async function run() {
//     return [{ figure: 'what is measured', unit: 'ms', samples: [/* one number per trial */],
//               baseline: 1.2 /* or null */, target: 50 /* or null */ }];
//   }
//
// This runner computes median and p95 (nearest rank) of the samples, ratio = median / baseline
// (a reference the module measures, e.g. the raw OS floor), and verdict: `pass` when the
// median is below the target, `FAIL` when not, `info` without a target. Progress goes to stderr.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
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

const entries = [];
for (const name of modules) {
  console.error(`bench: ${name} …`);
  const started = Date.now();
  const mod = await import(pathToFileURL(join(here, name)).href);
  const figures = await mod.run();
  for (const f of figures) {
    if (!Array.isArray(f.samples) || f.samples.length === 0) throw new Error(`${name}: figure "${f.figure}" has no samples`);
    const med = median(f.samples);
    const baseline = f.baseline ?? null;
    const target = f.target ?? null;
    entries.push({
      figure: f.figure,
      unit: f.unit ?? 'ms',
      n: f.samples.length,
      median: round(med),
      p95: round(percentile(f.samples, 95)),
      baseline: round(baseline),
      ratio: baseline ? round(med / baseline) : null,
      target,
      verdict: target === null ? 'info' : med < target ? 'pass' : 'FAIL',
    });
  }
  console.error(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const columns = ['figure', 'unit', 'n', 'median', 'p95', 'baseline', 'ratio', 'target', 'verdict'];
const cells = [columns, ...entries.map((e) => columns.map((c) => (e[c] === null ? '-' : String(e[c]))))];
const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
for (const [i, row] of cells.entries()) {
  console.log(row.map((cell, j) => (j === 0 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}

const results = join(here, 'results');
mkdirSync(results, { recursive: true });
const report = { date: new Date().toISOString(), node: process.version, platform: `${process.platform}-${process.arch}`, entries };
writeFileSync(join(results, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
console.error(`bench: wrote ${join('bench', 'results', 'latest.json')}`);
process.exitCode = entries.some((e) => e.verdict === 'FAIL') ? 1 : 0;
