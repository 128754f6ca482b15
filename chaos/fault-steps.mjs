// The steps that fault fleetcom's world: SIGKILL of the supervisor (then up), an outage with
// the agents busy meanwhile, SIGKILL of the tmux server (then up and recover), SIGSTOP and
// SIGCONT of the supervisor, the runtime dir or a capture namespace swept, a save on a full disk,
// a capture payload that fails the check written into a live agent's capture file, the
// supervisor's control connection to tmux killed.
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recipeEntries, resumeOf } from './checker.mjs';
import { CLEAR, QUIT, lastRecipe, livePid, lsJson, supervisorPid, typeAndWait, upAgain, waitGone } from './step-helpers.mjs';
import { cliPath, processAlive, until } from './world.mjs';

export const FAULTS = new Set(['kill-supervisor', 'kill-server', 'outage', 'stop-supervisor', 'kill-control', 'sweep-runtime', 'sweep-namespace', 'full-disk-save', 'bad-payload']);

/** The pid of each fleetcom control client attached to this world's tmux server. */
async function controlClients(world) {
  const r = await world.tmux('list-clients', '-F', '#{client_pid} #{client_termname}');
  return r.stdout.split('\n').filter((l) => l.endsWith(' fleetcom-control')).map((l) => Number(l.split(' ')[0])).filter((pid) => pid > 1);
}

/** An id that fails every agent's check (upper case), and payloads that carry it or no id at all. */
const UPPER_ID = 'ABCDEF01-2345-4678-9ABC-DEF012345678';
const BAD_PAYLOADS = [
  { session_id: UPPER_ID, hook_event_name: 'SessionStart', source: 'startup', type: 'agent-turn-complete', 'thread-id': UPPER_ID, id: UPPER_ID },
  // A valid id, but no hook's payload: claude's SessionStart names its event (measured).
  { session_id: '11111111-2222-4333-8444-555555555555' },
  '{"session_id": "torn',
  'not JSON at all',
];
/** Agents whose hook writes the whole capture file anew; the others append a line each. */
const WHOLE_FILE = new Set(['claude', 'copilot']);

export async function runFaultStep(ctx) {
  const { world, slots, step } = ctx;
  const slot = slots.get(step.slot);
  const needs = (ok) => (ok ? null : 'skipped');
  switch (step.op) {
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
      // The supervisor is SIGKILLed; while none runs, the agent talks (one with a /clear clears first)
      // and then exits; the next `up` adopts the task from what happened meanwhile.
      const pid = await supervisorPid(world);
      if (pid === null || !slot) return needs(false);
      process.kill(pid, 'SIGKILL');
      await waitGone(pid);
      const done = [];
      if (CLEAR[slot.kind]) done.push(await typeAndWait(world, slot, CLEAR[slot.kind], (r) => r.event === 'enter'));
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
    case 'kill-control': {
      // The supervisor's one tmux control client dies (SIGKILL): an ls at once (a tmux client of
      // its own meanwhile), and the supervisor makes the connection again by itself.
      const sup = await supervisorPid(world);
      const [pid] = await controlClients(world);
      if (sup === null || pid === undefined) return needs(false);
      process.kill(pid, 'SIGKILL');
      const r = await world.cli(['ls'], { deadlineMs: 8_000 });
      const back = await until(async () => (await controlClients(world)).some((p) => p !== pid), 12_000);
      if (!back && processAlive(sup)) ctx.violations.push({ invariant: 'the control connection is made again', kind: 'settle', evidence: `12 s after its control client (pid ${pid}) was killed, supervisor ${sup} has none` });
      return `ls meanwhile: exit ${r.code} in ${r.ms} ms; ${back ? 'connection made again' : 'no connection'}`;
    }
    case 'sweep-runtime': {
      // The supervisor may write into it while it goes (its guard, state.json): tried again, as a
      // tmp cleaner's next pass would.
      await import('node:fs').then((fs) => fs.rmSync(world.runtime, { recursive: true, force: true, maxRetries: 20, retryDelay: 20 }));
      return null;
    }
    case 'sweep-namespace': {
      let ns = null;
      try {
        ns = JSON.parse(readFileSync(join(world.runtime, 'state.json'), 'utf8')).namespace;
      } catch {}
      if (typeof ns !== 'string' || !ns.startsWith(world.dir)) return 'skipped (no namespace)';
      await import('node:fs').then((fs) => fs.rmSync(ns, { recursive: true, force: true }));
      // A /clear in the gap before the supervisor makes it again.
      if (slot && CLEAR[slot.kind]) return typeAndWait(world, slot, CLEAR[slot.kind], (r) => r.event === 'enter');
      return null;
    }
    case 'full-disk-save':
      return fullDiskSave(ctx);
    case 'bad-payload': {
      // It says nothing of where the agent is: no later resume may change because of it (the
      // checker judges every save against the agents' own record).
      if (!slot) return 'skipped';
      const pid = livePid(world, slot);
      const file = pid === null ? null : captureFileOf(pid);
      if (file === null) return 'skipped (no live capture file)';
      // Each in turn: the steps of a history are drawn, not their contents.
      world.badPayloads = (world.badPayloads ?? -1) + 1;
      const bad = BAD_PAYLOADS[world.badPayloads % BAD_PAYLOADS.length];
      const text = `${typeof bad === 'string' ? bad : JSON.stringify(bad)}\n`;
      try {
        if (WHOLE_FILE.has(slot.kind)) writeFileSync(file, text);
        else appendFileSync(file, text);
      } catch (error) {
        return `skipped (${error.code ?? error.message})`;
      }
      return `wrote ${JSON.stringify(text.trim()).slice(0, 60)} into ${slot.kind}'s capture file`;
    }
    default:
      return `unknown op ${step.op}`;
  }
}

/** The capture file fleetcom gave a live agent process (its FLEETCOM_CAPTURE_FILE), or null. */
function captureFileOf(pid) {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((e) => e.startsWith('FLEETCOM_CAPTURE_FILE='));
    return entry ? entry.slice('FLEETCOM_CAPTURE_FILE='.length) || null : null;
  } catch {
    return null;
  }
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


