// A worktree is part of the conversation's identity: a claude that talked in a worktree is
// saved with its worktree record; the worktree removed by hand, `load` makes it again at the
// same path before claude resumes there (claude files conversations by directory). An entry
// whose branch is gone is not started, with one line why, and the rest loads; doctor says so
// beforehand without changing anything.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { paneText, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { exitAgent, readDoc, sessionsDir, startsAfter, talk } from '../sessions/kit.js';
import { git, makeRepo, worktreePaths } from './kit.js';

describe('a worktree task saved and loaded', () => {
  it('re-creates a worktree removed by hand at the same path and the agent resumes there; a gone branch is refused alone', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const base = (await git(sb, repo, 'rev-parse', 'HEAD')).trim();
    const first = await startFleet(sb);
    const run = await first.cli('run', '--cwd', repo, '--worktree', 'feat', '--', 'claude');
    expect(run.exitCode, run.stderr).toBe(0);
    const task = await first.task(run.stdout.trim());
    const path = join(sb.dir, 'home', 'src', 'api.worktrees', 'feat');
    expect(task.cwd).toBe(path);
    await talk(sb, task, 'claude', 'remember the worktree');
    const id = (await exitAgent(sb, first, task)).conversationId;
    expect(id).not.toBeNull();
    const doomed = await first.cli('run', '--cwd', repo, '--worktree', 'doomed', '--', 'sleep', '600');
    expect(doomed.exitCode, doomed.stderr).toBe(0);
    expect((await first.cli('save', 'work')).exitCode).toBe(0);
    const doc = await readDoc(join(sessionsDir(sb), 'work.json'));
    expect(doc.dirs['~/src/api.worktrees/feat']).toEqual([
      { cmd: `claude --resume '${id}'`, group: null, name: null, worktree: { repo: '~/src/api', branch: 'feat', base, baseRef: 'main' } },
    ]);
    expect((await first.cli('down')).exitCode).toBe(0);

    // By hand: the worktree's directory deleted, the other branch and its worktree removed.
    await rm(path, { recursive: true, force: true });
    await git(sb, repo, 'worktree', 'remove', join(sb.dir, 'home', 'src', 'api.worktrees', 'doomed'));
    await git(sb, repo, 'branch', '-D', 'doomed');

    const doctor = await first.cli('doctor', 'work', '--verbose');
    expect(doctor.exitCode).toBe(1);
    expect(doctor.stdout).toContain('load makes it again');
    expect(doctor.stdout).toContain('branch doomed is gone');
    expect(existsSync(path)).toBe(false); // doctor changes nothing

    const second = await startFleet(sb, { name: 'second' });
    const before = (await sb.agentStarts()).length;
    const loaded = await second.cli('load', 'work');
    expect(loaded.exitCode).toBe(1);
    expect(loaded.stderr).toContain(`re-created the worktree of feat at ${path}`);
    expect(loaded.stderr).toContain('worktree not restored: branch doomed is gone');
    expect(loaded.stderr).toContain("loaded 'work': 1 task(s)");
    const [start] = await startsAfter(sb, before, 1);
    expect(start).toMatchObject({ agent: 'claude', cwd: path, argv: ['--resume', id, '--settings', expect.stringMatching(/claude-settings\.json$/)] });
    expect(await worktreePaths(sb, repo)).toEqual([repo, path]);
    const [resumed] = await second.ls();
    expect(resumed).toMatchObject({ cwd: path, worktree: { repo, path, branch: 'feat', base } });
    await waitForText(sb, resumed!.paneId, '? for shortcuts');
    expect(await paneText(sb, resumed!.paneId)).not.toContain('No conversation found');
  });
});
