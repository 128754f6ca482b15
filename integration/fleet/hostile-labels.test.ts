// Labels, groups and commands are user text: whatever they hold, every task keeps its own
// record through `ls --json`, `save` and `load`, and `kill` signals only the task it names.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { processExists } from '../../src/fleet/lifecycle/process-identity.js';
import { quoteShell } from '../../src/harness/quote.js';
import { normalizeGroup, normalizeLabel } from '../../src/sessions/recipe.js';
import { SEP } from '../../src/tmux/format.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { fillBytes, hostileText, seededRandom } from '../helpers/hostile-text.js';
import { useSandbox } from '../helpers/sandbox.js';

/** A process outside the fleet, in its own process group, as an unrelated program would be. */
function bystander(): number {
  const child = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
  const pid = child.pid;
  if (pid === undefined) throw new Error('sleep did not start');
  onTestFinished(() => {
    if (processExists(pid)) process.kill(-pid, 'SIGKILL');
  });
  return pid;
}

interface Spec {
  name: string | null;
  group: string | null;
  command: string;
}

async function runTask(fleet: Fleet, spec: Spec): Promise<number> {
  const options = [...(spec.name === null ? [] : [`--name=${spec.name}`]), ...(spec.group === null ? [] : [`--group=${spec.group}`])];
  const r = await fleet.cli('run', ...options, '--', spec.command);
  if (r.exitCode !== 0) throw new Error(`run failed (${r.exitCode}): ${r.stderr}`);
  return Number(r.stdout.trim());
}

/** A harmless command carrying `text`: the shell gets it as one quoted word and then sleeps. */
const carrying = (text: string) => `: ${quoteShell(text)}; exec sleep 600`;

describe('hostile labels, groups and commands', () => {
  it('a label holding a forged tmux record cannot make kill signal another process', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const victim = bystander();
    const socket = join(sb.env.FLEETCOM_RUNTIME_DIR!, 'default.sock');
    // On a fixed separator this name completed its pane's record with the victim's pid.
    const forged = ['x', '$0', '0', '', '', '', String(victim), '0', '1', '0', socket, '%999', '@999', '9', 'y'].join(SEP);
    const id = await runTask(fleet, { name: forged, group: null, command: 'exec sleep 600' });
    expect(await fleet.task(id)).toMatchObject({ name: forged, state: 'running' });
    const killed = await fleet.cli('kill', String(id));
    expect(killed.exitCode).toBe(0);
    expect(await fleet.waitTask(id, (t) => t.state === 'exited', 'exited')).toMatchObject({ killed: true, name: forged });
    expect(processExists(victim)).toBe(true);
  });

  it('every task round-trips through ls --json, save and load, and kill stops only its own (seeded)', async () => {
    const seed = 12;
    const random = seededRandom(seed);
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const victim = bystander();
    const text = (n: number) => hostileText(random, n);
    const specs: Spec[] = [];
    for (let i = 0; i < 6; i++) {
      specs.push({ name: i % 3 === 2 ? null : text(1 + Math.floor(random() * 40)), group: i % 2 ? text(12) : null, command: carrying(`${i} ${text(30)}`) });
    }
    specs.push({ name: fillBytes(text(50), 4096), group: null, command: carrying('long name') });
    specs.push({ name: 'long group', group: fillBytes(text(50), 4096), command: carrying('long group') });
    specs.push({ name: null, group: null, command: carrying(fillBytes(`long command ${text(50)}`, 4000)) });

    const ids: number[] = [];
    for (const spec of specs) ids.push(await runTask(fleet, spec));
    const listed = await fleet.ls();
    for (const [i, spec] of specs.entries()) {
      // Alive, not `running`: a task silent for 10 s is `idle`, and nine spawns on a loaded
      // 2-core machine took longer than that once.
      expect({ seed, i, task: listed.find((t) => t.id === ids[i]) }).toMatchObject({ seed, i, task: { ...spec, state: expect.stringMatching(/^(running|idle)$/) } });
    }

    expect((await fleet.cli('save', 'hostile')).exitCode).toBe(0);
    const saved = JSON.parse(await readFile(join(sb.env.FLEETCOM_CONFIG_DIR!, 'sessions', 'hostile.json'), 'utf8')) as { dirs: Record<string, unknown[]> };
    const entries = Object.values(saved.dirs).flat().map((e) => (typeof e === 'string' ? { cmd: e, name: null, group: null } : e));
    // A recipe holds names and groups as contract 7 normalises them; commands exactly.
    const normalized = specs.map((s) => ({ command: s.command, name: normalizeLabel(s.name), group: normalizeGroup(s.group) }));
    expect(entries).toEqual(normalized.map((s) => ({ cmd: s.command, name: s.name, group: s.group })));

    expect((await fleet.cli('load', 'hostile')).exitCode).toBe(0);
    const loaded = (await fleet.ls()).filter((t) => !ids.includes(t.id));
    expect(loaded.map((t) => ({ command: t.command, name: t.name, group: t.group }))).toEqual(normalized);

    const target = ids[3]!;
    expect((await fleet.cli('kill', String(target))).exitCode).toBe(0);
    const after = await fleet.ls();
    expect(after.filter((t) => t.state === 'exited').map((t) => t.id)).toEqual([target]);
    expect(processExists(victim)).toBe(true);
  }, 180_000);
});
