// The steps of the agents and of fleetcom's own commands: start, turn, /clear, subagent
// threads, exit, crash, SIGKILL of an agent, rerun, rm, save, load, down + up NAME, adopt, and
// several client commands at once.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLEAR, ENTERS_AT_MESSAGE, QUIT, SUBAGENT, lastRecipe, livePid, lsJson, taskOf, truthCount, typeAndWait, upAgain, waitGone } from './step-helpers.mjs';
import { sleep, until } from './world.mjs';

export async function runAgentStep(ctx) {
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
      world.trustFolder(step.kind, cwd, made.extraEnv);
      const r = await world.cli(['run', '--', step.kind], { cwd, extraEnv: made.extraEnv });
      if (r.code !== 0) return `run exited ${r.code}: ${r.stderr.trim().split('\n')[0] ?? ''}`;
      const entered = await until(() => truthCount(world, (x) => x.cwd === cwd && x.event === 'enter') > 0 || ENTERS_AT_MESSAGE.has(step.kind), 10_000);
      return entered ? `task ${r.stdout.trim()}` : 'the agent did not start within 10 s';
    }
    case 'turn': {
      if (!slot) return 'skipped';
      return typeAndWait(world, slot, `chaos turn ${ctx.index + 1}`, (r) => r.event === 'spoke');
    }
    case 'clear': {
      if (!slot || !CLEAR[slot.kind]) return 'skipped';
      return typeAndWait(world, slot, CLEAR[slot.kind], (r) => r.event === 'enter');
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
      await until(() => truthCount(world, (x) => x.cwd === slot.cwd && x.event === 'enter') > before || ENTERS_AT_MESSAGE.has(slot.kind), 10_000);
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
      world.trustFolder(step.kind, cwd, made.extraEnv);
      const env = Object.entries(made.extraEnv).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
      const w = await world.tmux('new-window', '-d', '-P', '-F', '#{window_id} #{pane_id}', '-t', 'fleet:', '-c', cwd, ...env, '--', step.kind);
      if (w.code !== 0) return 'skipped (no fleet session)';
      const [windowId, paneId] = w.stdout.trim().split(' ');
      await until(() => truthCount(world, (x) => x.cwd === cwd && x.event === 'enter') > 0 || ENTERS_AT_MESSAGE.has(step.kind), 10_000);
      await sleep(step.kind === 'claude' ? 4_000 : 300); // claude writes its registry record 3-4 s after start
      const r = await world.cli(['adopt', paneId]);
      if (r.code !== 0) world.reported.add(windowId);
      return `adopt ${paneId}: exit ${r.code}${r.code !== 0 ? ` (${r.stderr.trim().split('\n')[0] ?? ''})` : ''}`;
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
    default:
      return `unknown op ${step.op}`;
  }
}
