#!/usr/bin/env node
// `npm run docs:screenshot`: the README's picture of the dashboard, taken from the real thing.
// It starts the demo fleet (examples/demo.json, the fake agents, every home in a temp dir) on a
// private tmux server, adds a second claude, drives the fakes a little — one claude working,
// one asking for a permission, codex waiting for you, a build done — captures the dashboard
// pane with its colours (`capture-pane -e -p`) and draws it as an SVG (screenshot/ansi-svg.mjs).
//
//   node scripts/docs-screenshot.mjs                      writes docs/dashboard.svg (after npm run build)
//   node scripts/docs-screenshot.mjs --out FILE           writes FILE
//   node scripts/docs-screenshot.mjs --smoke [--report F] renders into the temp dir only; CI's check
//
// Either way the picture is checked before it is written (the rows, the glyphs, the attention
// colours); `--report FILE` writes the checks as a vitest-shaped report, one test each, which
// .ci/summarize.mjs counts. A dashboard change that breaks the picture fails CI.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { cli, demoEnv, recipe, repo } from '../examples/demo-env.mjs';
import { ansiToSvg, THEME } from './screenshot/ansi-svg.mjs';

const run = promisify(execFile);
const COLS = 96;
const ROWS = 12;

function parseArgs(args) {
  const opts = { smoke: false, out: join(repo, 'docs', 'dashboard.svg'), report: null };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--smoke') opts.smoke = true;
    else if (args[i] === '--out' && args[i + 1] !== undefined) opts.out = resolve(args[++i]);
    else if (args[i] === '--report' && args[i + 1] !== undefined) opts.report = resolve(args[++i]);
    else {
      process.stderr.write(`docs-screenshot: unknown argument ${args[i]} (use --smoke, --out FILE, --report FILE)\n`);
      process.exit(2);
    }
  }
  return opts;
}

/** Polls `fn` until it returns a value that is not false/null/undefined (no fixed sleeps). */
async function waitFor(fn, what, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last !== undefined && last !== null && last !== false) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${String(last).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The demo fleet on its own tmux server, driven into the state the picture shows. */
async function capture(dir) {
  const socket = join(dir, 'tmux.sock');
  // The fake claude's reply waits for a file nobody creates: it stays "working".
  // Lines are typed with send-keys and Enter at once, which the fake codex and gemini would
  // take as a paste (as the real ones do): off here, as in the tests that type so.
  const env = {
    ...demoEnv(dir), FAKE_CLAUDE_REPLY_GATE: join(dir, 'never'), TERM: 'xterm-256color', LANG: 'C.UTF-8',
    FAKE_CODEX_PASTE_BURST_MS: '0', FAKE_GEMINI_FAST_RETURN_MS: '0', FAKE_GEMINI_PASTE_ENTER_MS: '0',
  };
  // The picture shows the colours whatever the caller's own preference.
  delete env.NO_COLOR;
  const tmux = async (...args) => (await run('tmux', ['-S', socket, ...args], { env })).stdout;
  const fleetcom = async (...args) => (await run(process.execPath, [cli, ...args], { env, cwd: repo })).stdout;
  try {
    await fleetcom('up', '--detach', '--tmux-socket', socket, '--tmux-session', 'demo', recipe);
    await fleetcom('run', '--name', 'reviewer (fake)', '--group', 'agents', '--', 'claude');
    const dashboard = (await tmux('list-panes', '-t', 'demo:0', '-F', '#{pane_id}')).trim();
    await tmux('resize-window', '-t', 'demo:0', '-x', String(COLS), '-y', String(ROWS));
    const tasks = async () => JSON.parse(await fleetcom('ls', '--json'));
    const byName = async (name) => (await tasks()).find((t) => t.name === name);
    const say = async (name, text) => {
      const task = await waitFor(async () => {
        const t = await byName(name);
        // The fakes print their prompt when they are ready for a line.
        return t && /^(>|›|❯|grok>) ?$/m.test(await tmux('capture-pane', '-p', '-t', t.paneId)) && t;
      }, `${name} ready`);
      await tmux('send-keys', '-t', task.paneId, '-l', text);
      await tmux('send-keys', '-t', task.paneId, 'Enter');
    };
    await say('claude (fake)', 'refactor the api routes');
    await say('reviewer (fake)', 'review it: fake-permission');
    await say('codex (fake)', 'add tests for the parser');
    await waitFor(async () => {
      const all = await tasks();
      const of = (name) => all.find((t) => t.name === name);
      return (
        of('claude (fake)')?.attention === 'working' &&
        of('reviewer (fake)')?.attention === 'permission' &&
        of('codex (fake)')?.attention === 'waiting' &&
        all.some((t) => t.state === 'exited' && t.exitStatus === 0)
      );
    }, 'claude working, reviewer asking, codex waiting, the build done');
    // The selection (an inverse row) off the Needs-you rows, so their colours show.
    await tmux('send-keys', '-t', dashboard, 'j', 'j');
    return await waitFor(async () => {
      const screen = await tmux('capture-pane', '-e', '-p', '-t', dashboard);
      const lines = screen.split('\n');
      const selected = lines.findIndex((l) => l.includes('\x1b[0;7m') || l.includes('\x1b[7m'));
      return screen.includes('Needs you (2)') && selected > 3 && screen;
    }, 'the dashboard showing two tasks that need you, the selection below them');
  } finally {
    await fleetcom('down').catch(() => undefined);
    await tmux('kill-server').catch(() => undefined);
  }
}

/** What the picture must show; each is one test of the report. */
function checks(svg) {
  const texts = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  const fillsOf = (word) => [...svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)].filter((m) => m[2] === word).map((m) => /fill="([^"]+)"/.exec(m[1])?.[1] ?? null);
  return [
    ['is one whole SVG document', svg.startsWith('<svg ') && svg.trimEnd().endsWith('</svg>') && (svg.match(/<text /g) ?? []).length === (svg.match(/<\/text>/g) ?? []).length],
    ['shows every task of the demo fleet', ['claude', 'codex', 'grok', 'reviewer', 'clock', 'build'].every((w) => texts.includes(w))],
    ['groups them with the tasks that need you first', texts.indexOf('Needs') !== -1 && texts.indexOf('Needs') < texts.indexOf('Running') && texts.includes('Completed')],
    ['shows each attention and state glyph (working, waiting, permission, done)', ['✻', '❯', '⚑', '✓'].every((g) => texts.includes(g))],
    ['colours a waiting task yellow and a permission red', fillsOf('codex').includes(THEME.ansi[3]) && fillsOf('reviewer').includes(THEME.ansi[1])],
  ];
}

function writeReport(file, results) {
  const failed = results.filter(([, ok]) => !ok).length;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({
    numPassedTests: results.length - failed,
    numFailedTests: failed,
    success: failed === 0,
    testResults: [{ name: 'docs-screenshot', assertionResults: results.map(([title, ok]) => ({ title, status: ok ? 'passed' : 'failed' })) }],
  })}\n`);
}

const opts = parseArgs(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), 'fleetcom-shot-'));
let results;
try {
  const screen = await capture(dir);
  const svg = await ansiToSvg(screen, { cols: COLS, rows: ROWS, title: 'fleetcom — the demo fleet (npm run demo)' });
  results = checks(svg);
  const out = opts.smoke ? join(dir, 'dashboard.svg') : opts.out;
  if (results.every(([, ok]) => ok)) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, svg);
    process.stderr.write(`docs-screenshot: ${opts.smoke ? 'rendered (smoke)' : `wrote ${out}`}, ${svg.length} bytes\n`);
  } else {
    writeFileSync(join(dir, 'rejected.svg'), svg);
  }
} catch (error) {
  results = [['captures the demo fleet', false]];
  process.stderr.write(`docs-screenshot: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
}
for (const [title, ok] of results) if (!ok) process.stderr.write(`docs-screenshot: FAILED: the picture ${title}\n`);
if (opts.report !== null) writeReport(opts.report, results);
process.exitCode = results.every(([, ok]) => ok) ? 0 : 1;
