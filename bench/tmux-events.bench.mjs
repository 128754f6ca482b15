// A pane title's change, seen by the supervisor: the fake gemini of a headless fleet sets its
// title as a turn starts (`Working…`) and ends (`Ready`), which is all fleetcom learns of its
// state; the figure is the time from the keys that start the turn (and from the reply's
// release) to the supervisor's log line of the new state (FLEETCOM_LOG_MS). tmux reports a
// subscribed format at most once a second, from a timer of each control client's own: the
// baseline is that period as tmux keeps it in the same run, the interval between two reports
// to a bare `tmux -C` client subscribed to a title that changes all the time.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createWorld, sleep, waitFor } from './lib/world.mjs';

/** The tests' fake gemini, which sets its pane title as gemini-cli 0.61.0 does. */
const fakes = fileURLToPath(new URL('../integration/fixtures/bin', import.meta.url));

// "A title change seen within 1.2 s of the agent setting it" (a gemini turn shorter than the old
// 2 s reconciliation could pass unseen): 1.2 report periods at p95.
const RATIO = 1.2;

/** The period of tmux's subscription reports: the intervals between reports to a bare control client. */
async function reportPeriod(w, intervals) {
  // A title that changes every 50 ms in a pane of its own.
  const pane = w.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'main:', 'sh', '-c', `i=0; while :; do i=$((i+1)); printf '\\033]0;t%s\\007' "$i"; sleep 0.05; done`).trim();
  const client = spawn('tmux', ['-f', '/dev/null', '-S', w.socket, '-C', 'attach-session', '-f', 'no-output', '-t', 'main'], {
    env: { ...w.env, TERM: 'fleetcom-control' }, stdio: ['pipe', 'pipe', 'ignore'],
  });
  const at = [];
  let attached = false;
  let text = '';
  client.stdout.setEncoding('utf8').on('data', (chunk) => {
    text += chunk;
    let nl;
    while ((nl = text.indexOf('\n')) >= 0) {
      const line = text.slice(0, nl);
      text = text.slice(nl + 1);
      if (line.startsWith('%session-changed ')) attached = true;
      if (line.startsWith('%subscription-changed period ') && line.includes(` ${pane} `)) at.push(Date.now());
    }
  });
  try {
    await waitFor(() => attached, 'the bare control client to attach');
    client.stdin.write(`refresh-client -B 'period:${pane}:#{pane_title}'\n`);
    await waitFor(() => at.length > intervals, 'the subscription reports', { timeout: 20_000 + intervals * 2_000 });
  } finally {
    client.stdin.end();
    client.kill();
    w.tmux('kill-pane', '-t', pane);
  }
  return at.slice(1).map((t, i) => t - at[i]);
}

export async function run({ smoke = false } = {}) {
  const [TURNS, INTERVALS] = smoke ? [2, 3] : [12, 12];
  const w = await createWorld();
  try {
    const period = await reportPeriod(w, INTERVALS);
    const fleet = await w.startFleet();
    const gate = w.path('reply-gate');
    const started = await w.cli(['run', '--', 'gemini'], { extra: { PATH: `${fakes}:${w.env.PATH}`, FAKE_GEMINI_REPLY_GATE: gate, FAKE_AGENT_LOG: w.path('agents.log') } });
    if (started.code !== 0) throw new Error(`run gemini failed: ${started.stderr}`);
    const id = started.stdout.trim();
    const [task] = JSON.parse((await w.cli(['ls', '--json'])).stdout).filter((t) => String(t.id) === id);
    /** Epoch ms of the supervisor's `n`th log line (from 1) saying the task is in `state`. */
    const logged = (state, n) => waitFor(() => {
      const lines = fleet.text().split('\n').filter((l) => new RegExp(`^\\d+ \\S+ task ${id} ${state}`).test(l));
      return lines.length >= n ? Number(lines[n - 1].split(' ', 1)[0]) : false;
    }, `task ${id} ${state} (${n})`, { timeout: 20_000 });
    await logged('waiting', 1); // its ready prompt
    const samples = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      await w.tmuxAsync('send-keys', '-t', task.paneId, '-l', `hello ${turn}`);
      const typed = Date.now();
      await w.tmuxAsync('send-keys', '-t', task.paneId, 'Enter');
      samples.push((await logged('working', turn)) - typed);
      // Held a moment, as a turn is: the next title must not come within tmux's same second.
      await sleep(300);
      const released = Date.now();
      writeFileSync(gate, '');
      samples.push((await logged('waiting', turn + 1)) - released);
      await waitFor(() => !existsSync(gate), 'gemini to take the gate');
    }
    await w.stopFleet(fleet);
    return [{
      figure: 'a pane title seen by the supervisor (gemini working, then waiting)', unit: 'ms', samples, baseline: period,
      target: { ratio: RATIO, of: 'p95' },
      note: `from the keys (or the reply's release) to the supervisor's log line; baseline: the period of tmux's subscription reports to a bare control client (${period.length} intervals)`,
    }];
  } finally {
    await w.close();
  }
}
