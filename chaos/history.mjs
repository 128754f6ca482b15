// Runs one history: a fresh world, `fleetcom up`, then each step and the checker after it.
// Returns at the first invariant broken (with the steps run so far), or when all steps ran.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, parseTruth, recipeEntries, resumeOf } from './checker.mjs';
import { describe } from './steps.mjs';
import { createWorld, cliPath, processAlive, sleep, until } from './world.mjs';

/** How long a `settle` violation may last before it is reported. */
const SETTLE_MS = 12_000;
const QUIT = { claude: '/exit', codex: '/exit', grok: '/exit', gemini: '/quit', opencode: '/exit' };
const SUBAGENT = { codex: 'delegate this', gemini: 'spawn subagent', opencode: 'spawn subagent' };

/**
 * Runs `steps`; `log(line)` gets one line per step. Returns {violations, ran, skipped, notes}.
 * `fullDisk` is null when a full disk can be made here, else the reason it cannot.
 */
export async function runHistory(steps, { log = () => {}, fullDisk = null } = {}) {
  const world = createWorld();
  const slots = new Map();
  const notes = [];
  let saves = 0;
  let ran = 0;
  try {
    const started = await world.up();
    if (!started.answered) return { violations: [{ invariant: 'the fleet starts', kind: 'safety', evidence: 'fleetcom up did not answer within 30 s' }], ran, notes };
    for (const [i, step] of steps.entries()) {
      const fresh = [];
      const ctx = { world, slots, step, index: i, fresh, notes, fullDisk, violations: [], nextSave: () => `chaos-${++saves}` };
      const t0 = Date.now();
      const outcome = await runStep(ctx);
      ran += 1;
      const t1 = Date.now();
      // A skipped step changed nothing: the last check stands.
      const skipped = typeof outcome === 'string' && outcome.startsWith('skipped');
      const violations = [...ctx.violations, ...(skipped ? [] : await settleAndCheck(world, fresh))];
      log(`  ${String(i + 1).padStart(3)} ${describe(step)}${outcome ? ` — ${outcome}` : ''} (${t1 - t0} + ${Date.now() - t1} ms)`);
      if (violations.length > 0) return { violations, ran, notes, failedAt: i, logs: await world.supervisorLogs() };
    }
    return { violations: [], ran, notes };
  } finally {
    await world.destroy();
  }
}

/** Observes and checks; a `settle` violation is observed again until it is gone or SETTLE_MS pass. */
async function settleAndCheck(world, fresh) {
  const commands = world.takeCommands();
  const end = Date.now() + SETTLE_MS;
  for (;;) {
    const obs = await observe(world, fresh);
    const violations = check({ ...obs, commands });
    const safety = violations.filter((v) => v.kind === 'safety');
    if (safety.length > 0) return safety;
    if (violations.length === 0) return [];
    if (Date.now() > end) return violations;
    await sleep(300);
    world.takeCommands();
  }
}

async function observe(world, fresh) {
  const lsRun = await world.cli(['ls', '--json'], { deadlineMs: 20_000 });
  let ls = null;
  if (lsRun.code === 0) {
    try {
      ls = JSON.parse(lsRun.stdout);
    } catch {
      ls = null;
    }
  }
  world.lastLs = ls;
  const truth = parseTruth(world.truthText());
  const alive = [...new Set(truth.map((r) => r.pid))].filter(processAlive);
  const supervisors = world.supervisors();
  const files = world.recipeFiles().map((f) => {
    const saved = fresh.find((x) => x.file === f.file);
    const current = f.kind === 'snapshot' && supervisors.some((s) => f.file.endsWith(`-${s.pid}.json`));
    return { ...f, ...(saved ? { fresh: true, expectedEntries: saved.expectedEntries } : {}), current };
  });
  for (const f of fresh) if (f.text !== undefined) files.push({ file: f.file, kind: 'recipe', text: f.text, fresh: true });
  const windows = await world.agentPanes();
  for (const w of windows) world.panesSeen.set(w.pid, w.paneId);
  const panes = [...world.panesSeen].map(([pid, paneId]) => ({ pid, paneId }));
  return { truth, alive, ls, home: world.home, files, supervisors, windows, reported: [...world.reported], panes };
}

async function lsJson(world) {
  const r = await world.cli(['ls', '--json'], { deadlineMs: 20_000 });
  if (r.code !== 0) return null;
  try {
    return JSON.parse(r.stdout);
  } catch {
    return null;
  }
}

/**
 * The task of a slot's agent: the newest one in its directory, a running one first. `cached`
 * takes the last check's `ls` (a step that only types into a pane needs no newer one).
 */
async function taskOf(world, slot, cached = false) {
  const tasks = (cached && world.lastLs) || (await lsJson(world)) || [];
  const mine = tasks.filter((t) => t.cwd === slot.cwd).sort((a, b) => b.id - a.id);
  return mine.find((t) => t.state !== 'exited') ?? mine[0] ?? null;
}

/** The live agent process of a slot (the newest the truth names in its directory). */
function livePid(world, slot) {
  const truth = parseTruth(world.truthText());
  const pids = [...new Set(truth.filter((r) => r.cwd === slot.cwd).map((r) => r.pid))].reverse();
  return pids.find(processAlive) ?? null;
}

function truthCount(world, predicate) {
  return parseTruth(world.truthText()).filter(predicate).length;
}

/** Types into the slot's pane and waits until the truth has a new record matching `predicate`. */
async function typeAndWait(world, slot, text, predicate, ms = 10_000) {
  const task = await taskOf(world, slot, true);
  const pid = livePid(world, slot);
  if (!task || task.state === 'exited' || pid === null) return 'skipped (no live agent)';
  const before = truthCount(world, (r) => r.pid === pid && predicate(r));
  await world.tmux('send-keys', '-t', task.paneId, '-l', text);
  await world.tmux('send-keys', '-t', task.paneId, 'Enter');
  const seen = await until(() => truthCount(world, (r) => r.pid === pid && predicate(r)) > before, ms);
  return seen ? null : `no ${text} seen within ${ms} ms`;
}

async function waitGone(pid, ms = 10_000) {
  return until(() => !processAlive(pid), ms);
}

async function supervisorPid(world) {
  return world.supervisors()[0]?.pid ?? null;
}

async function upAgain(world, args = []) {
  const r = await world.up(args);
  return r.answered ? null : 'the new supervisor did not answer';
}

async function runStep(ctx) {
  const { world, slots, step } = ctx;
  const slot = slots.get(step.slot);
  const needs = (ok) => (ok ? null : 'skipped');
  switch (step.op) {
    case 'start': {
      if (slot) return 'skipped (slot taken)';
      const cwd = join(world.dir, 'work', `s${step.slot}-${step.kind}-${ctx.index + 1}`);
      mkdirSync(cwd, { recursive: true });
      const made = { kind: step.kind, cwd, extraEnv: world.agentEnv(step.slot, step.kind, step.home) };
      slots.set(step.slot, made);
      const r = await world.cli(['run', '--', step.kind], { cwd, extraEnv: made.extraEnv });
      if (r.code !== 0) return `run exited ${r.code}: ${r.stderr.trim().split('\n')[0] ?? ''}`;
      const entered = await until(() => truthCount(world, (x) => x.cwd === cwd && x.event === 'enter') > 0 || step.kind === 'opencode', 10_000);
      return entered ? `task ${r.stdout.trim()}` : 'the agent did not start within 10 s';
    }
    case 'turn': {
      if (!slot) return 'skipped';
      return typeAndWait(world, slot, `chaos turn ${ctx.index + 1}`, (r) => r.event === 'spoke');
    }
    case 'clear': {
      if (!slot || slot.kind !== 'claude') return 'skipped';
      return typeAndWait(world, slot, '/clear', (r) => r.event === 'enter');
    }
    case 'subagent': {
      if (!slot || !SUBAGENT[slot.kind]) return 'skipped';
      return typeAndWait(world, slot, SUBAGENT[slot.kind], (r) => r.event === 'subagent');
    }
    case 'exit':
    case 'crash': {
      if (!slot) return 'skipped';
      const pid = livePid(world, slot);
      const task = await taskOf(world, slot, true);
      if (pid === null || !task) return 'skipped (no live agent)';
      await world.tmux('send-keys', '-t', task.paneId, '-l', step.op === 'exit' ? QUIT[slot.kind] : '/crash');
      await world.tmux('send-keys', '-t', task.paneId, 'Enter');
      return (await waitGone(pid)) ? null : 'the agent did not end within 10 s';
    }
    case 'kill-agent': {
      if (!slot) return 'skipped';
      const pid = livePid(world, slot);
      if (pid === null) return 'skipped (no live agent)';
      process.kill(pid, 'SIGKILL');
      return (await waitGone(pid)) ? null : 'still alive';
    }
    case 'rerun': {
      if (!slot) return 'skipped';
      const task = await taskOf(world, slot);
      if (!task) return 'skipped (no task)';
      if (task.state !== 'exited') {
        await world.cli(['kill', String(task.id)]);
        await until(async () => (await taskOf(world, slot))?.state === 'exited', 10_000);
      }
      const before = truthCount(world, (r) => r.cwd === slot.cwd && r.event === 'enter');
      const r = await world.cli(['rerun', String(task.id)]);
      if (r.code !== 0) return `rerun exited ${r.code}: ${r.stderr.trim().split('\n')[0] ?? ''}`;
      await until(() => truthCount(world, (x) => x.cwd === slot.cwd && x.event === 'enter') > before || slot.kind === 'opencode', 10_000);
      return null;
    }
    case 'rm': {
      if (!slot) return 'skipped';
      // The agent is over: its slot takes a new one (the draw does the same).
      slots.delete(step.slot);
      const task = await taskOf(world, slot);
      if (!task) return 'skipped (no task)';
      const r = await world.cli(['rm', String(task.id)]);
      return r.code === 0 ? null : `rm exited ${r.code}`;
    }
    case 'save': {
      const name = ctx.nextSave();
      const tasks = await lsJson(world);
      const r = await world.cli(['save', name]);
      if (r.code === 0) ctx.fresh.push({ file: join(world.sessions, `${name}.json`), expectedEntries: tasks?.length });
      return r.code === 0 ? name : `save exited ${r.code}: ${r.stderr.trim().split('\n')[0] ?? ''}`;
    }
    case 'load': {
      const last = lastRecipe(world);
      if (!last) return 'skipped (nothing saved yet)';
      const r = await world.cli(['load', last]);
      return `${last}: exit ${r.code}`;
    }
    case 'down-up': {
      // As a user does it: save, down, then `up NAME` (which loads that recipe at start).
      const name = ctx.nextSave();
      const tasks = await lsJson(world);
      const saved = await world.cli(['save', name]);
      if (saved.code === 0) ctx.fresh.push({ file: join(world.sessions, `${name}.json`), expectedEntries: tasks?.length });
      const last = saved.code === 0 ? name : lastRecipe(world);
      const down = await world.cli(['down'], { deadlineMs: 90_000 });
      if (down.code !== 0) return `down exited ${down.code}: ${down.stderr.trim().split('\n')[0] ?? ''}`;
      await until(() => world.supervisors().length === 0, 10_000);
      return (await upAgain(world, last ? [last] : [])) ?? `up ${last ?? ''}`;
    }
    case 'adopt': {
      if (slot) return 'skipped (slot taken)';
      const cwd = join(world.dir, 'work', `s${step.slot}-${step.kind}-${ctx.index + 1}-by-hand`);
      mkdirSync(cwd, { recursive: true });
      const made = { kind: step.kind, cwd, extraEnv: world.agentEnv(step.slot, step.kind, step.home) };
      slots.set(step.slot, made);
      const env = Object.entries(made.extraEnv).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
      const w = await world.tmux('new-window', '-d', '-P', '-F', '#{window_id} #{pane_id}', '-t', 'fleet:', '-c', cwd, ...env, '--', step.kind);
      if (w.code !== 0) return 'skipped (no fleet session)';
      const [windowId, paneId] = w.stdout.trim().split(' ');
      await until(() => truthCount(world, (x) => x.cwd === cwd && x.event === 'enter') > 0 || step.kind === 'opencode', 10_000);
      await sleep(step.kind === 'claude' ? 4_000 : 300); // claude writes its registry record 3-4 s after start
      const r = await world.cli(['adopt', paneId]);
      if (r.code !== 0) world.reported.add(windowId);
      return `adopt ${paneId}: exit ${r.code}${r.code !== 0 ? ` (${r.stderr.trim().split('\n')[0] ?? ''})` : ''}`;
    }
    case 'kill-supervisor': {
      const pid = await supervisorPid(world);
      if (pid === null) return needs(false);
      process.kill(pid, 'SIGKILL');
      await waitGone(pid);
      return (await upAgain(world)) ?? 'up again';
    }
    case 'kill-server': {
      const server = await world.tmux('display-message', '-p', '#{pid}');
      const pid = Number(server.stdout.trim());
      if (!(pid > 1)) return needs(false);
      // A new server numbers its panes from %0 again: the panes seen so far are another server's.
      world.panesSeen.clear();
      const sup = await supervisorPid(world);
      // What recover must bring back: every conversation the live supervisor's snapshot resumes.
      const snapshot = sup === null ? null : world.recipeFiles().find((f) => f.kind === 'snapshot' && f.file.endsWith(`-${sup}.json`));
      const owed = snapshot ? (recipeEntries(snapshot.text, world.home).entries ?? []).map((e) => ({ ...e, id: resumeOf(e.cmd).id })).filter((e) => e.id) : [];
      process.kill(pid, 'SIGKILL');
      await waitGone(pid);
      // The panes lose their terminal (SIGHUP); a supervisor that lingers is this world's to end.
      if (sup !== null && !(await waitGone(sup, 5_000))) process.kill(sup, 'SIGKILL');
      const up = await upAgain(world);
      if (up) return up;
      const r = await world.cli(['recover', '--json'], { deadlineMs: 60_000 });
      let notStarted = '';
      let doc = null;
      try {
        doc = JSON.parse(r.stdout);
        notStarted = ` (${doc.ids?.length ?? 0} started, ${doc.skipped?.length ?? 0} skipped)`;
      } catch {}
      // Each one is a task again, or recover said why not (its --json names what it skipped).
      const said = JSON.stringify(doc ?? r.stderr);
      const missing = async () => {
        const tasks = (await lsJson(world)) ?? [];
        return owed.filter((e) => !said.includes(e.id) && !tasks.some((t) => t.cwd === e.dir && (t.conversationId === e.id || (t.command ?? '').includes(e.id))));
      };
      await until(async () => (await missing()).length === 0, 12_000);
      for (const e of await missing()) {
        ctx.violations.push({ invariant: 'no task lost', kind: 'safety', evidence: `after the tmux server was killed, recover brought back no task for \`${e.cmd}\` in ${e.dir} (in snapshot ${snapshot.file}) and did not say why` });
      }
      return `recover: exit ${r.code}${notStarted}`;
    }
    case 'outage': {
      // The supervisor is SIGKILLed; while none runs, the agent talks (a claude /clears first)
      // and then exits; the next `up` adopts the task from what happened meanwhile.
      const pid = await supervisorPid(world);
      if (pid === null || !slot) return needs(false);
      process.kill(pid, 'SIGKILL');
      await waitGone(pid);
      const done = [];
      if (slot.kind === 'claude') done.push(await typeAndWait(world, slot, '/clear', (r) => r.event === 'enter'));
      done.push(await typeAndWait(world, slot, `chaos outage turn ${ctx.index + 1}`, (r) => r.event === 'spoke'));
      const agent = livePid(world, slot);
      const task = world.lastLs?.find((t) => t.cwd === slot.cwd && t.state !== 'exited');
      if (agent !== null && task && ctx.index % 2 === 0) {
        await world.tmux('send-keys', '-t', task.paneId, '-l', QUIT[slot.kind]);
        await world.tmux('send-keys', '-t', task.paneId, 'Enter');
        await waitGone(agent);
        done.push('exited');
      }
      return (await upAgain(world)) ?? `up again after: ${done.map((d) => d ?? 'ok').join(', ')}`;
    }
    case 'stop-supervisor': {
      const pid = await supervisorPid(world);
      if (pid === null) return needs(false);
      process.kill(pid, 'SIGSTOP');
      try {
        const r = await world.cli(['ls'], { deadlineMs: 8_000 });
        return `ls while stopped: exit ${r.code} in ${r.ms} ms: ${r.stderr.trim().split('\n')[0] ?? ''}`;
      } finally {
        process.kill(pid, 'SIGCONT');
      }
    }
    case 'sweep-runtime': {
      await import('node:fs').then((fs) => fs.rmSync(world.runtime, { recursive: true, force: true }));
      return null;
    }
    case 'sweep-namespace': {
      let ns = null;
      try {
        ns = JSON.parse(readFileSync(join(world.runtime, 'state.json'), 'utf8')).namespace;
      } catch {}
      if (typeof ns !== 'string' || !ns.startsWith(world.dir)) return 'skipped (no namespace)';
      await import('node:fs').then((fs) => fs.rmSync(ns, { recursive: true, force: true }));
      // A claude /clear in the gap before the supervisor makes it again.
      if (slot?.kind === 'claude') return typeAndWait(world, slot, '/clear', (r) => r.event === 'enter');
      return null;
    }
    case 'concurrent': {
      const name = ctx.nextSave();
      const tasks = await lsJson(world);
      const task = slot ? await taskOf(world, slot) : null;
      const rs = await Promise.all([
        world.cli(['ls', '--json']),
        world.cli(['save', name]),
        world.cli(['ls']),
        task ? world.cli(['rerun', String(task.id)]) : world.cli(['sessions']),
      ]);
      if (rs[1].code === 0) ctx.fresh.push({ file: join(world.sessions, `${name}.json`), expectedEntries: tasks?.length });
      return `exits ${rs.map((r) => r.code).join(' ')}`;
    }
    case 'full-disk-save':
      return fullDiskSave(ctx);
    default:
      return `unknown op ${step.op}`;
  }
}

function lastRecipe(world) {
  for (let n = 200; n >= 1; n--) if (existsSync(join(world.sessions, `chaos-${n}.json`))) return `chaos-${n}`;
  return null;
}

/**
 * `save` onto a full disk: in a private mount namespace (`unshare -m`), a small tmpfs over the
 * sessions dir holding a copy of the last recipe, filled up; the save must fail and leave that
 * recipe byte for byte as it was (or, if it fit, write a whole one).
 */
async function fullDiskSave(ctx) {
  const { world } = ctx;
  if (ctx.fullDisk) return `skipped: ${ctx.fullDisk}`;
  const last = lastRecipe(world);
  if (!last) return 'skipped (nothing saved yet)';
  const keep = join(world.dir, 'tmp', 'full-disk-before.json');
  copyFileSync(join(world.sessions, `${last}.json`), keep);
  const script = [
    'mount --make-rprivate / && mount -t tmpfs -o size=64k tmpfs "$S" || exit 97',
    'cp "$K" "$S/$N.json" || exit 97',
    'dd if=/dev/zero of="$S/fill" bs=1k 2>/dev/null; sync',
    `"$NODE" "$CLI" save "$N"; code=$?`,
    'if cmp -s "$K" "$S/$N.json"; then echo same; else echo changed; cat "$S/$N.json"; fi',
    'exit $code',
  ].join('\n');
  const r = await world.cli(['save', last, '(on a full disk)'], {
    command: ['unshare', '-m', 'sh', '-c', script, 'sh'],
    extraEnv: { S: world.sessions, K: keep, N: last, NODE: process.execPath, CLI: cliPath },
  });
  if (r.code === 97) return `skipped: no private tmpfs here (${r.stderr.trim().split('\n')[0] ?? ''})`;
  const same = r.stdout.includes('same');
  if (r.code !== 0 && !same) {
    ctx.violations.push({ invariant: 'no torn recipe or snapshot', kind: 'safety', evidence: `a save that failed on a full disk (exit ${r.code}) changed ${last}.json: ${r.stdout.slice(0, 300)}` });
  } else if (r.code === 0 && !same) {
    ctx.fresh.push({ file: '(full disk)', text: r.stdout.replace(/^changed\n/, ''), expectedEntries: undefined });
  }
  return `save on a full disk: exit ${r.code}, recipe ${same ? 'unchanged' : 'rewritten whole'}`;
}

