// A codex that runs a subagent thread (the fake does it for a message naming `delegate`, as
// the real 0.171.0 does for a spawn_agent call): the subagent's rollout sits beside the user's
// and its notify comes after the user thread's, yet the task stays in the user's conversation
// everywhere — ls, save, the recovery snapshot, a new `up` after a crash, the exit — and a
// recipe naming the subagent's thread loads, and is fixed, as its user thread (contract 9.5).
import { readFileSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { paneText, pressKeys } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { killSupervisor, upAgain } from '../helpers/supervisor.js';
import { waitFor } from '../helpers/wait-for.js';
import { readDoc, recoveryDir, snapshots, spawnIn, startsAfter, talk, tilde } from '../sessions/kit.js';

type Payload = Record<string, unknown>;

function payloads(file: string): Payload[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Payload);
}

describe('a codex task whose codex runs a subagent thread', () => {
  it('keeps the user thread in ls, save, the recovery snapshot, a new up and the exit; a recipe naming the subagent loads as the user thread', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const w = await sb.mkdir('home', 'w');
    const task = await spawnIn(fleet, w, 'codex');
    await talk(sb, task, 'codex', 'please delegate this');
    const [start] = await startsAfter(sb, 0, 1);
    const capture = start!.env.FLEETCOM_CAPTURE_FILE!;
    // The user thread's payload, the title thread's, then the subagent's.
    const [main, , child] = await waitFor(() => {
      const got = payloads(capture);
      return got.length >= 3 && got;
    }, { what: 'three notify payloads' });
    const parent = String(main?.['thread-id']);
    const sub = String(child?.['thread-id']);
    expect(child).not.toHaveProperty('client');
    const sessions = join(sb.env.CODEX_HOME!, 'sessions');
    expect(readdirSync(sessions, { recursive: true }).filter((f) => String(f).endsWith('.jsonl'))).toHaveLength(2);

    const resumes = [`codex resume '${parent}'`];
    expect(await fleet.task(task.id)).toMatchObject({ conversationId: parent, idSource: 'capture', resumeCommand: resumes[0] });
    expect(JSON.parse((await fleet.cli('save', '--stdout')).stdout).dirs).toEqual({ [tilde(sb, w)]: resumes });
    // A snapshot written after a change that follows the subagent's payload.
    expect((await fleet.cli('rename', String(task.id), 'delegator')).exitCode).toBe(0);
    const named = [{ cmd: resumes[0], group: null, name: 'delegator' }];
    await waitFor(async () => {
      const [newest] = (await snapshots(sb)).reverse();
      return newest !== undefined && JSON.stringify((await readDoc(join(recoveryDir(sb), newest))).dirs) === JSON.stringify({ [tilde(sb, w)]: named });
    }, { what: 'a recovery snapshot naming the user thread' });

    // A crash: the next up adopts the task, still in the user thread.
    await killSupervisor(sb, fleet);
    const supervisor = await upAgain(sb, fleet);
    expect(await fleet.task(task.id)).toMatchObject({ conversationId: parent, idSource: 'capture' });
    expect(JSON.parse((await fleet.cli('save', '--stdout')).stdout).dirs).toEqual({ [tilde(sb, w)]: named });

    await pressKeys(sb, task.paneId, 'C-c');
    const ended = await fleet.waitTask(task.id, (t) => t.state === 'exited', 'exited');
    expect(ended).toMatchObject({ conversationId: parent, idSource: 'exit-hint', resumeCommand: resumes[0] });
    expect(await fleet.log()).not.toContain(`captured conversation ${sub}`);

    // A recipe from before fleetcom knew subagent threads: doctor says whose thread it is, and
    // --fix writes the user thread; loaded as it is, it resumes the user thread too.
    const recipe = (file: string) => writeFile(file, JSON.stringify({ version: 1, name: 'old', dirs: { [tilde(sb, w)]: [`codex resume '${sub}'`] } }));
    const fix = join(sb.dir, 'old.json');
    await recipe(fix);
    const checked = await fleet.cli('doctor', fix);
    expect(checked.exitCode, checked.stdout).toBe(0);
    expect(checked.stdout).toContain(`a subagent thread of ${parent}; resumes ${parent}`);
    expect(checked.stdout).toContain(`fleetcom doctor --fix ${fix} rewrites it to codex resume '${parent}'`);
    const fixed = await fleet.cli('doctor', '--fix', fix);
    expect(fixed.exitCode, fixed.stdout).toBe(0);
    expect(fixed.stderr).toContain(`fixed ${tilde(sb, w)}: codex resume '${sub}' → codex resume '${parent}'`);
    expect(JSON.parse(readFileSync(fix, 'utf8')).dirs).toEqual({ [tilde(sb, w)]: resumes });
    const backup = readdirSync(sb.dir).find((n) => n.startsWith('old.json.') && n.endsWith('.bak'));
    expect(readFileSync(join(sb.dir, backup!), 'utf8')).toContain(sub);

    const load = join(sb.dir, 'load.json');
    await recipe(load);
    const loaded = await fleet.cli('load', load);
    expect(loaded.exitCode, loaded.stderr).toBe(0);
    const [resumed] = await startsAfter(sb, 1, 1);
    expect(resumed?.argv.slice(0, 2)).toEqual(['resume', parent]);
    const again = (await fleet.ls()).find((t) => t.id !== task.id)!;
    expect(again).toMatchObject({ command: resumes[0], conversationId: parent, idSource: 'pinned' });
    await waitFor(async () => (await paneText(sb, supervisor)).includes(`codex resume '${sub}' names a subagent thread of ${parent}; runs codex resume '${parent}' instead`), {
      what: 'the log to say the recipe entry was redirected',
    });
  });
});
