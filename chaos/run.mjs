// `npm run chaos -- [--seed N] [--histories N] [--steps N] [--replay FILE|DIR]... [--report FILE]
// [--no-shrink] [--shrink-budget N] [--out DIR]`: random fault histories against the built CLI, each on a private tmux server
// with the fake agents, checked after every step (checker.mjs). A broken invariant stops the
// history, prints the seed, the steps, the invariant and the evidence, and shrinks the history
// to a minimal one that still fails, written to a replay file that `--replay` runs again.
// The last line is `<h> histories, <s> steps, <v> violations`; exit 0 only with none.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runHistory } from './history.mjs';
import { shrink } from './shrink.mjs';
import { describe, drawSteps, validSteps } from './steps.mjs';
import { cliPath, liveWorlds } from './world.mjs';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    histories: { type: 'string', default: '1' },
    steps: { type: 'string', default: '50' },
    replay: { type: 'string', multiple: true },
    report: { type: 'string' },
    'no-shrink': { type: 'boolean', default: false },
    'shrink-budget': { type: 'string', default: '40' },
    out: { type: 'string', default: 'reports/chaos' },
  },
});

function usage(message) {
  console.error(`chaos: ${message}`);
  process.exit(2);
}

const positive = (name) => {
  const n = Number(values[name]);
  if (!Number.isSafeInteger(n) || n < 1) usage(`--${name} must be a positive whole number, not ${JSON.stringify(values[name])}`);
  return n;
};
if (!existsSync(cliPath)) usage(`${cliPath} is missing: run npm run build first`);

/** Why a full disk cannot be made here (a private mount namespace needs root), or null. */
function fullDiskProblem() {
  if (process.getuid?.() !== 0) return 'not root: a private mount namespace (unshare -m) needs it';
  const r = spawnSync('unshare', ['-m', 'sh', '-c', 'mount --make-rprivate / && mount -t tmpfs -o size=64k tmpfs /mnt'], { encoding: 'utf8' });
  if (r.error) return `unshare: ${r.error.message}`;
  return r.status === 0 ? null : `unshare -m failed: ${(r.stderr || '').trim().split('\n')[0]}`;
}

/** The histories to run: replays (files, or every .json of a directory), else drawn ones. */
function plan() {
  if (values.replay?.length) {
    const files = values.replay.flatMap((p) =>
      statSync(p).isDirectory() ? readdirSync(p).filter((f) => f.endsWith('.json')).sort().map((f) => join(p, f)) : [p]);
    return files.map((file) => {
      let doc;
      try {
        doc = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        usage(`${file}: not a replay file (${e.message})`);
      }
      const problem = validSteps(doc?.steps);
      if (problem) usage(`${file}: ${problem}`);
      return { label: `replay ${file}`, seed: doc.seed ?? null, steps: doc.steps, replay: true };
    });
  }
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) usage(`--seed must be a whole number, not ${JSON.stringify(values.seed)}`);
  const histories = positive('histories');
  const count = positive('steps');
  return Array.from({ length: histories }, (_, h) => ({ label: `seed ${seed + h}`, seed: seed + h, steps: drawSteps(seed + h, count) }));
}

// Ctrl-C (or a CI timeout) mid-history: its tmux server and processes go too.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    for (const world of liveWorlds) await world.destroy().catch(() => {});
    process.exit(130);
  });
}

const fullDisk = fullDiskProblem();
if (fullDisk) console.log(`chaos: full-disk steps are skipped: ${fullDisk}`);
const histories = plan();
let stepsRun = 0;
let violations = 0;
const results = [];

for (const h of histories) {
  const started = Date.now();
  console.log(`chaos: ${h.label}: ${h.steps.length} steps`);
  const result = await runHistory(h.steps, { log: (line) => console.log(line), fullDisk });
  stepsRun += result.ran;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.violations.length === 0) {
    console.log(`chaos: ${h.label}: ok in ${seconds} s`);
    results.push({ title: h.label, status: 'passed' });
    continue;
  }
  violations += 1;
  const first = result.violations[0];
  const failing = h.steps.slice(0, (result.failedAt ?? h.steps.length - 1) + 1);
  console.log(`chaos: ${h.label}: VIOLATION after step ${failing.length} (${seconds} s)`);
  console.log(`  invariant: ${first.invariant}`);
  for (const v of result.violations) console.log(`  evidence: ${v.evidence}`);
  if (result.logs) console.log(result.logs);
  console.log('  steps:');
  for (const [i, s] of failing.entries()) console.log(`    ${i + 1}. ${describe(s)}`);
  let minimal = failing;
  if (!values['no-shrink'] && !h.replay && failing.length > 1) {
    console.log('chaos: shrinking (each candidate is replayed)…');
    const fails = async (candidate) => {
      const r = await runHistory(candidate, { fullDisk });
      return r.violations.some((v) => v.invariant === first.invariant);
    };
    const shrunk = await shrink(failing, fails, { budget: positive('shrink-budget'), log: (line) => console.log(`  ${line}`) });
    minimal = shrunk.steps;
    console.log(`chaos: shrunk to ${minimal.length} steps in ${shrunk.runs} replays:`);
    for (const [i, s] of minimal.entries()) console.log(`    ${i + 1}. ${describe(s)}`);
  }
  if (!h.replay) {
    mkdirSync(values.out, { recursive: true });
    const file = resolve(values.out, `replay-${h.seed}.json`);
    writeFileSync(file, `${JSON.stringify({ seed: h.seed, invariant: first.invariant, evidence: first.evidence, steps: minimal }, null, 2)}\n`);
    console.log(`chaos: replay with: npm run chaos -- --replay ${file}`);
  }
  results.push({ title: h.label, status: 'failed', failureMessages: result.violations.map((v) => `${v.invariant}: ${v.evidence}`) });
}

if (values.report) {
  const passed = results.filter((r) => r.status === 'passed').length;
  const report = {
    numPassedTests: passed,
    numFailedTests: results.length - passed,
    numTotalTests: results.length,
    success: passed === results.length,
    testResults: [{ name: 'chaos', assertionResults: results }],
  };
  mkdirSync(resolve(values.report, '..'), { recursive: true });
  writeFileSync(values.report, `${JSON.stringify(report, null, 2)}\n`);
}
console.log(`${histories.length} histories, ${stepsRun} steps, ${violations} violations`);
process.exit(violations === 0 ? 0 : 1);
