// Driving an agent, against what it cannot do with less (issue 41), each in a world of its own
// with the fake claude of integration/fixtures/bin (its hooks as claude 2.1.x fires them):
//
// - send -> submitted: `fleetcom send` (a Node CLI: the supervisor pastes the text, presses
//   Enter after claude's delay and waits for its UserPromptSubmit hook) against typing the same
//   message by hand — ONE `tmux send-keys` call with the text and Enter — until the supervisor
//   logs the turn it started (the hook's run and the capture watcher's latency included): the
//   least any confirmed delivery costs.
// - wait wakes after a turn ends: a `fleetcom wait --turn N` already waiting; the turn's two
//   hooks written into the task's events file as claude writes them; the figure is the wait's
//   exit after that write, the baseline the supervisor's own log stamp of the same turn's end
//   (FLEETCOM_LOG_MS=1): the capture latency, the floor of anything told by it.
// - output: `fleetcom output` against reading the same reply by hand: a Node process that reads
//   the task's transcript and takes its last assistant text.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeSlug } from '../dist/harness/index.js';
import { cliPath, createWorld, logTime, runTimed, waitFor } from './lib/world.mjs';

// From this machine's loaded runs (2026-12-07, 2 cores, load 6–11): send's median 79 ms
// against 16 ms typed by hand with claude's Enter delay at 50 ms (4.9 ×; 20 ms since), the wait
// 15 ms against a capture stamp of 1 ms (15 ×: two processes' turns on a loaded machine), output
// 83 ms against the hand read's 48 ms (1.7 ×). The goals leave room for such a machine, not for
// a poll: a send that looked for its confirmation every 250 ms would be ~8 × the typed floor, a
// wait that asked every 100 ms ~50 × the capture stamp (as capture-latency's goal of 40 floors
// reasons), an output through commander's parser ~2.5 × the hand read (measured: 4 ×, before
// output and wait joined the hot path).
const SEND_RATIO = 5;
const WAIT_RATIO = 40;
const OUTPUT_RATIO = 2;

/** A CLI that prints when its wait is over: its exit code, output, and when its first output came. */
function waitOutput(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let printedAt = null;
    child.stdout.setEncoding('utf8').on('data', (c) => {
      printedAt ??= Date.now();
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, printedAt }));
  });
}

const integrationBin = fileURLToPath(new URL('../integration/fixtures/bin', import.meta.url));

export async function run({ smoke = false } = {}) {
  const trials = smoke ? 3 : 25;
  const warmup = smoke ? 1 : 3;
  const w = await createWorld();
  try {
    const path = [integrationBin, w.env.PATH].join(':');
    const fleet = await w.startFleet({ extra: { PATH: path } });
    const cli = (args) => w.cli(args, { extra: { PATH: path } });
    const started = await cli(['run', '--', 'claude']);
    if (started.code !== 0) throw new Error(`bench: run claude failed: ${started.stderr}`);
    const id = started.stdout.trim();
    const record = async () => JSON.parse((await cli(['ls', '--json'])).stdout).find((t) => String(t.id) === id);
    const ready = await waitFor(async () => {
      const t = await record();
      return t?.attention === 'waiting' && t;
    }, 'the fake claude at its prompt');
    const pane = ready.paneId;
    let turn = 0;
    /** The log stamp of the line saying turn `n` started (or started and ended). */
    const stampOf = (n, what) => waitFor(() => {
      const line = fleet.text().split('\n').find((l) => l.includes(`task ${id} `) && l.includes(`${what} (turn ${n})`));
      return line === undefined ? null : logTime(line);
    }, `the log of turn ${n}`);

    const send = [];
    const typed = [];
    for (let i = 0; i < warmup + trials; i++) {
      // fleetcom send, confirmed.
      const r = await cli(['send', id, '--json', `bench message ${i}`]);
      if (r.code !== 0) throw new Error(`bench: send failed (${r.code}): ${r.stdout} ${r.stderr}`);
      turn += 1;
      const reply = JSON.parse(r.stdout);
      if (reply.turn !== turn) throw new Error(`bench: send said turn ${reply.turn}, expected ${turn}`);
      await stampOf(turn, 'waiting');
      // By hand: one send-keys call with the text and Enter, until the supervisor logs the turn.
      const at = Date.now();
      w.tmux('send-keys', '-t', pane, `typed message ${i}`, 'Enter');
      turn += 1;
      const seen = await stampOf(turn, 'working');
      await stampOf(turn, 'waiting');
      if (i < warmup) continue;
      send.push(reply.ms);
      typed.push(seen - at);
    }

    const capture = JSON.parse(readFileSync(join(w.dir, 'fleetcom-run', 'state.json'), 'utf8')).tasks.find((t) => String(t.id) === id).captureFile;
    const events = capture.replace(/\.json$/, '.events');

    // output: fleetcom's, against the transcript read by hand.
    const session = JSON.parse(readFileSync(events, 'utf8').split('\n')[0]).session_id;
    const transcript = join(w.env.CLAUDE_CONFIG_DIR, 'projects', claudeSlug(w.dir), `${session}.jsonl`);
    if (!existsSync(transcript)) throw new Error(`bench: no transcript ${transcript}`);
    const byHand = `const lines = require('fs').readFileSync(${JSON.stringify(transcript)}, 'utf8').split('\\n').filter(Boolean);
      const last = lines.map((l) => JSON.parse(l)).reverse().find((r) => r.type === 'assistant');
      process.stdout.write(typeof last.message.content === 'string' ? last.message.content : '');`;
    const out = [];
    const hand = [];
    for (let i = 0; i < warmup + trials; i++) {
      const r = await cli(['output', id]);
      if (r.code !== 0) throw new Error(`bench: output failed (${r.code}): ${r.stderr}`);
      const h = await runTimed(process.execPath, ['-e', byHand], { env: w.env, cwd: w.dir });
      if (h.code !== 0) throw new Error(`bench: the hand read failed: ${h.stderr}`);
      if (r.stdout !== `${h.stdout}\n`) throw new Error(`bench: output said ${JSON.stringify(r.stdout)}, the transcript ${JSON.stringify(h.stdout)}`);
      if (i < warmup) continue;
      out.push(r.ms);
      hand.push(h.ms);
    }
    // wait: the turn's hooks written as claude writes them, into the task's events file.
    const woke = [];
    const stamps = [];
    for (let i = 0; i < warmup + trials; i++) {
      const next = turn + 1;
      const waiting = waitOutput(['wait', id, '--turn', String(next)], { ...w.env, PATH: path }, w.dir);
      // The wait is listening once the supervisor has its stream open: give its start time.
      await new Promise((resolve) => setTimeout(resolve, smoke ? 400 : 250));
      const hook = (event, more) => JSON.stringify({ session_id: session, hook_event_name: event, prompt_id: `bench-${next}`, ...more });
      const at = Date.now();
      appendFileSync(events, `${hook('UserPromptSubmit', { prompt: `fast ${next}` })}\n${hook('Stop', { last_assistant_message: `reply ${next}` })}\n`);
      const r = await waiting;
      if (r.code !== 0 || r.stdout !== `${id}\n`) throw new Error(`bench: wait failed (${r.code}): ${r.stdout} ${r.stderr}`);
      turn = next;
      const logged = await stampOf(turn, 'waiting');
      if (i < warmup) continue;
      woke.push(r.printedAt - at);
      stamps.push(logged - at);
    }

    await w.stopFleet(fleet);
    return [
      { figure: 'send -> submitted (fleetcom send, confirmed)', unit: 'ms', samples: send, baseline: typed, target: { ratio: SEND_RATIO },
        note: "the supervisor's own time from the request to the verdict (its reply's ms; the CLI's start is cold-start's); baseline: one tmux send-keys with the text and Enter, until the supervisor logs the turn it started (the hook and the capture watcher)" },
      { figure: "wait wakes after a turn's end", unit: 'ms', samples: woke, baseline: stamps, target: { ratio: WAIT_RATIO },
        note: "from the write of the turn's hooks to the waiting CLI printing the task; baseline: to the supervisor's own log stamp of the same turn's end (its capture latency)" },
      { figure: "output: a turn's reply", unit: 'ms', samples: out, baseline: hand, target: { ratio: OUTPUT_RATIO },
        note: 'baseline: a Node process reading the same transcript and taking its last assistant text' },
    ];
  } finally {
    await w.close();
  }
}
