#!/usr/bin/env node
// `npm run bench` (after `npm run build`): run every `bench/*.bench.mjs`, or only those whose
// file name contains one of the arguments (`node bench/run.mjs capture`), print a table on
// stdout and write bench/results/latest.json. Exit 1 when a figure misses its goal.
//
// `--smoke`: every figure with a handful of samples and no verdicts (a loaded machine's few
// samples prove nothing about a goal), so that CI sees a figure that no longer runs. It
// writes bench/results/smoke.json and exits 1 when a bench file throws. `--report FILE`
// also writes a vitest-shaped JSON report (one passed test per figure, one failed test per
// bench file that threw) for CI's `N passed, N failed` line.
//
// Adding a figure: create `bench/<topic>.bench.mjs` importing the built code from `../dist/…`
// and exporting
//
//   export async function run({ smoke }) {   // smoke: true → take a handful of samples
//     return [{ figure: 'what is measured', unit: 'ms', samples: [/* one number per trial */],
//               baseline: [/* the baseline's samples, same run */] /* or one number */,
//               target: { ratio: 1.5 } /* or { ratio: X, of: 'mean' | 'p95' | 'max' }, or null */,
//               note: 'optional: how it was measured' }];
//   }
//
// Every figure has a baseline measured in the same run, in the same environment (the shared
// ones are in bench/lib/baselines.mjs), and every goal is a ratio to it (bench/lib/verdict.mjs
// says how each is judged); a figure without one breaks its file. Progress goes to stderr.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkFigure, entryOf } from './lib/verdict.mjs';

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

const fmt = (value) => (value === null ? '-' : String(value));

const loadAtStart = loadavg().map((v) => Math.round(v * 100) / 100);
console.error(`bench: load average ${loadAtStart.join(' ')} (${availableParallelism()} cores)`);
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
    for (const f of figures) checkFigure(f);
  } catch (error) {
    console.error(`bench: ${name} failed: ${error instanceof Error ? error.stack : error}`);
    broken.push({ name, error: error instanceof Error ? error.message : String(error) });
    continue;
  }
  for (const f of figures) {
    const entry = entryOf(f, smoke);
    entries.push(entry);
    if (entry.note) notes.push(`${entry.figure}: ${entry.note}`);
  }
  console.error(`bench: ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// Three figures at most; below 1, two significant ones (a sub-millisecond floor is not 0).
const short = (v) => (v === null ? null : Math.abs(v) >= 100 ? Math.round(v) : Math.abs(v) >= 1 || v === 0 ? Math.round(v * 10) / 10 : Number(v.toPrecision(2)));
const columns = ['figure', 'unit', 'n', 'median', 'p95', 'min–max', 'baseline', 'ratio', 'over', 'target', 'verdict'];
const row = (e) => [
  e.figure, e.unit, String(e.n), fmt(short(e.median)), fmt(short(e.p95)), `${short(e.min)}–${short(e.max)}`,
  fmt(short(e.baseline)), `${e.ratio.toFixed(2)}${e.ratioOf === 'median' ? '' : ` (${e.ratioOf})`}`, fmt(short(e.over)), e.target ?? '-', e.verdict,
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
// The world's processes (both sides of every ratio) run in the sandbox environment, which
// inherits nothing; what the bench's own process has set is recorded beside the figures.
const ENV_NOTED = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS', 'NODE_COMPILE_CACHE', 'UV_THREADPOOL_SIZE'];
const benchEnv = Object.fromEntries(ENV_NOTED.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
const report = {
  date: new Date().toISOString(), node: process.version, platform: `${process.platform}-${process.arch}`, cores: availableParallelism(),
  loadAverageAtStart: loadAtStart, loadAverage: loadavg().map((v) => Math.round(v * 100) / 100), benchEnv, smoke, entries, broken,
};
console.log(`\nNode ${process.version}, ${availableParallelism()} cores, load average ${loadAtStart.join(' ')} at the start, ${report.loadAverage.join(' ')} at the end. Every process a figure or its baseline starts runs in the sandbox environment${Object.keys(benchEnv).length ? `, without this runner's ${Object.keys(benchEnv).join(', ')}` : ''}; in-process figures share this runner with their baselines.`);
writeFileSync(join(results, resultName), `${JSON.stringify(report, null, 2)}\n`);
console.error(`bench: wrote ${join('bench', 'results', resultName)}`);
if (reportFile !== null) {
  const missed = entries.filter((e) => e.verdict === 'FAIL').length;
  const failed = broken.length + missed;
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, `${JSON.stringify({ numPassedTests: entries.length - missed, numFailedTests: failed, success: failed === 0 })}\n`);
}
process.exitCode = broken.length > 0 || entries.some((e) => e.verdict === 'FAIL') ? 1 : 0;
