// fleetcom web: (1) a keystroke sent on a task's terminal socket (the page's own protocol,
// spoken by a ws client) until its echo arrives in a frame, against the least a tool outside
// tmux can do for the same — `tmux send-keys` of the key, then `tmux capture-pane` of the same
// pane until the echo shows — timed alternately in the same run; (2) the server's memory while
// 10 viewers watch a pane printing as fast as it can, against the same server's memory before
// any viewer came.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import xterm from '@xterm/headless';
import WebSocket from 'ws';
import { rssMb } from './lib/proc.mjs';
import { cliPath, createWorld, median, sleep, waitFor } from './lib/world.mjs';

const FULL = { keys: 60, warmup: 5, busyMs: 10_000 };
const SMOKE = { keys: 4, warmup: 1, busyMs: 1_500 };
// The goal depends on how the pane reaches the server (the hello message says). Streamed by
// the supervisor (its control-mode connection), a key's echo comes back as the pane's own
// output, sooner than tmux's send-keys and a capture can show it: 0.34 measured at load 7–11
// on 2 cores (3.8 ms against 13.3 ms, 2026-12-07); the goal is to be no slower than that
// baseline. Polled (a supervisor without streams), the echo waits for the next 40 ms poll:
// 1.97 and 3.15 measured at load 10–13 (54 and 49 ms against 28 and 18 ms).
const ECHO_RATIO = { stream: 1, poll: 4 };
// Polled, a viewer past its socket's high-water mark skips frames (each a whole screen);
// streamed, the supervisor holds the pane back until the viewer has read. Ten viewers of a
// flood cost the server their socket buffers: 1.05–1.12 polled, 1.38 streamed (81 MB max
// against 59 MB), same runs.
const MEMORY_RATIO = 1.6;
const VIEWERS = 10;

export async function run({ smoke = false } = {}) {
  const cfg = smoke ? SMOKE : FULL;
  const world = await createWorld();
  let web = null;
  try {
    await world.startFleet();
    const shell = (await world.cli(['run', '--', 'sh'])).stdout.trim();
    const tasks = JSON.parse((await world.cli(['ls', '--json'])).stdout);
    const pane = tasks.find((t) => String(t.id) === shell).paneId;
    web = await startWeb(world);
    const echo = await keystrokes(world, web, shell, pane, cfg);
    // The flood starts only now: it would load the machine under the keystrokes too.
    const busy = (await world.cli(['run', '--', 'while :; do seq 1 2000; done'])).stdout.trim();
    const memory = await viewersOfBusyPane(web, busy, cfg);
    return [
      {
        figure: 'web: a keystroke on the terminal socket to its echo on the page',
        unit: 'ms', samples: echo.samples, baseline: echo.floors, target: smoke ? null : { ratio: ECHO_RATIO[echo.transport] ?? ECHO_RATIO.poll, of: 'mean' },
        note: `baseline: tmux send-keys of the key, then capture-pane until the echo shows; the pane ${echo.transport === 'stream' ? 'streamed by the supervisor' : 'polled every 40 ms'}`,
      },
      {
        figure: `web: the server's memory with ${VIEWERS} viewers of a busy pane`,
        unit: 'MB', samples: memory.samples, baseline: memory.floor, target: smoke ? null : { ratio: MEMORY_RATIO, of: 'max' },
        note: `baseline: the same server before any viewer; the pane prints seq 1 2000 in a loop for ${cfg.busyMs / 1000} s`,
      },
    ];
  } finally {
    web?.child.kill('SIGTERM');
    await world.close();
  }
}

async function startWeb(world) {
  const child = spawn(process.execPath, [cliPath, 'web', '--port', '0'], { env: world.env, cwd: world.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
  child.stderr.resume();
  const url = new URL(await waitFor(() => /^http:\S+#token=\S+$/m.exec(out)?.[0], 'fleetcom web to print its URL'));
  return { child, port: url.port, token: url.hash.replace('#token=', ''), origin: url.origin };
}

/**
 * A terminal socket whose bytes are drawn by xterm's own emulator (headless), as the page
 * draws them: `screen()` is what a person would read, whatever the transport sends.
 */
function socket(web, task, { draw = true } = {}) {
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api/tasks/${task}/terminal`, { headers: { Authorization: `Bearer ${web.token}`, Origin: web.origin } });
  const term = draw ? new xterm.Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 }) : null;
  const state = { frames: 0, waiter: null, screen: () => '', transport: null };
  if (term !== null) {
    state.screen = () => Array.from({ length: term.rows }, (_, i) => term.buffer.active.getLine(i)?.translateToString(true) ?? '').join('\n');
  }
  ws.on('message', (data, binary) => {
    if (!binary) {
      const msg = JSON.parse(data.toString('utf8'));
      if (msg.type === 'hello') state.transport = msg.transport;
      if (msg.type === 'size') term?.resize(msg.cols, msg.rows);
      return;
    }
    state.frames++;
    if (term === null) return;
    term.write(data, () => state.waiter?.());
  });
  return { ws, state, open: new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject)) };
}

async function keystrokes(world, web, task, pane, { keys, warmup }) {
  const s = socket(web, task);
  await s.open;
  await waitFor(() => s.state.frames > 0, 'the first screen');
  const samples = [];
  const floors = [];
  let typed = '';
  // Each key extends a line of its own letters; the line is cleared (Ctrl-U) between rounds, untimed.
  const letter = (i) => String.fromCharCode(97 + (i % 26));
  for (let i = 0; i < warmup + keys; i++) {
    if (typed.length >= 40) {
      s.ws.send(Buffer.from('\x15'));
      typed = '';
      await waitFor(() => !/[a-z]{40}/.test(s.state.screen()), 'the line cleared', { every: 5 }).catch(() => {});
    }
    // The socket: one key, then frames until one shows the line with it.
    typed += letter(i);
    const want = typed;
    let start = performance.now();
    const seen = new Promise((resolve) => {
      s.state.waiter = () => {
        if (s.state.screen().includes(want)) {
          s.state.waiter = null;
          resolve();
        }
      };
    });
    s.ws.send(Buffer.from(letter(i)));
    await seen;
    const ms = performance.now() - start;
    // The baseline: the same key by tmux, then capture-pane until its echo shows.
    typed += letter(i);
    const wantToo = typed;
    start = performance.now();
    await world.tmuxAsync('send-keys', '-t', pane, '-l', letter(i));
    for (;;) {
      const r = await world.tmuxAsync('capture-pane', '-p', '-t', pane);
      if (r.stdout.includes(wantToo)) break;
    }
    const floor = performance.now() - start;
    // Let the socket see the baseline's key before the next timed one.
    await waitFor(() => s.state.screen().includes(wantToo), 'the socket to see the baseline\'s key', { every: 2 });
    if (i < warmup) continue;
    samples.push(ms);
    floors.push(floor);
  }
  s.ws.close();
  return { samples, floors, transport: s.state.transport };
}

async function viewersOfBusyPane(web, task, { busyMs }) {
  await sleep(500);
  const floor = rssMb(web.child.pid);
  // The viewers only count frames: drawing ten floods would measure this process, not the server.
  const viewers = Array.from({ length: VIEWERS }, () => socket(web, task, { draw: false }));
  await Promise.all(viewers.map((v) => v.open));
  const samples = [];
  const end = Date.now() + busyMs;
  while (Date.now() < end) {
    await sleep(250);
    samples.push(rssMb(web.child.pid));
  }
  const frames = viewers.map((v) => v.state.frames);
  for (const v of viewers) v.ws.close();
  if (Math.min(...frames) === 0) throw new Error(`bench: a viewer of the busy pane got no frame (${frames.join(', ')})`);
  return { samples, floor, frames: median(frames) };
}

