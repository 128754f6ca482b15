// Shell completion as bash runs it: the script from `fleetcom completion bash` sourced in a bash
// subprocess, its function called with the words typed so far, COMPREPLY read back. `fleetcom`
// on PATH is a wrapper around the built CLI, as an installed bin would be.
import { execa } from 'execa';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidates, formatCandidates, type Sources } from '../../src/completion/candidates.js';
import { programShape } from '../../src/commands/program.js';
import { cliPath, runCli } from '../helpers/cli.js';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';

async function withFleetcomOnPath(sb: Sandbox): Promise<Record<string, string>> {
  const bin = await sb.mkdir('bin');
  await writeFile(join(bin, 'fleetcom'), `#!/bin/sh\nexec '${process.execPath}' '${cliPath}' "$@"\n`);
  await chmod(join(bin, 'fleetcom'), 0o755);
  return { ...sb.env, PATH: `${bin}:${sb.env.PATH}` };
}

/** What bash offers for `fleetcom <words>` (the last word is the one being completed). */
async function bashComplete(env: Record<string, string>, cwd: string, ...words: string[]): Promise<string[]> {
  const script = [
    'source <(fleetcom completion bash) || exit 9',
    'COMP_WORDS=(fleetcom "$@"); COMP_CWORD=$#',
    '_fleetcom_complete',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = await execa('bash', ['--norc', '--noprofile', '-c', script, 'bash', ...words], { env, extendEnv: false, cwd, reject: false });
  expect({ code: r.exitCode, err: r.stderr }).toEqual({ code: 0, err: '' });
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('bash completion', () => {
  it('registers for fleetcom and completes subcommands and options without a fleet', async () => {
    const sb = await useSandbox();
    const env = await withFleetcomOnPath(sb);
    const registered = await execa('bash', ['--norc', '-c', 'source <(fleetcom completion bash) && complete -p fleetcom'], { env, extendEnv: false });
    expect(registered.stdout).toBe('complete -o default -F _fleetcom_complete fleetcom');
    expect(await bashComplete(env, sb.dir, 're')).toEqual(['rerun', 'rename', 'recover', 'resume']);
    expect(await bashComplete(env, sb.dir, 'up', '--gr')).toEqual(['--group-by']);
    expect(await bashComplete(env, sb.dir, 'up', '--group-by', '')).toEqual(['state', 'dir', 'group']);
    expect(await bashComplete(env, sb.dir, 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
    // No fleet: no task ids, and no error on the terminal.
    expect(await bashComplete(env, sb.dir, 'rerun', '')).toEqual([]);
    expect(await bashComplete(env, sb.dir, '__')).toEqual([]);
  });

  it("offers the running fleet's task ids, with labels for shells that show them", async () => {
    const sb = await useSandbox();
    const env = await withFleetcomOnPath(sb);
    const fleet = await startFleet(sb);
    const first = await fleet.run('sleep 600');
    const second = await fleet.run('sleep 700');
    expect((await fleet.cli('rename', second, 'watcher')).exitCode).toBe(0);
    expect(await bashComplete(env, sb.dir, 'kill', '')).toEqual([first, second]);
    const answer = await runCli(['__complete', '--', 'rerun', ''], { env, cwd: sb.dir });
    // The state in the description: a loaded machine can take the 10 s that make a task idle.
    expect(answer.stdout).toMatch(new RegExp(`^${first}\tsleep 600 \\((running|idle)\\)\n${second}\twatcher \\((running|idle)\\)\n$`));
  });

  it('offers saved sessions for load and up, and snapshot names for recover', async () => {
    const sb = await useSandbox();
    const env = await withFleetcomOnPath(sb);
    const sessions = join(sb.env.FLEETCOM_CONFIG_DIR!, 'sessions');
    await mkdir(join(sessions, 'recovery'), { recursive: true });
    const recipe = (name: string) => JSON.stringify({ version: 1, name, dirs: { [sb.dir]: ['sleep 1'] } });
    await writeFile(join(sessions, 'work.json'), recipe('work'));
    await writeFile(join(sessions, 'web.json'), recipe('web'));
    await writeFile(join(sessions, 'recovery', '20261129-193005-4242.json'), recipe('autosave'));
    expect((await bashComplete(env, sb.dir, 'load', '')).sort()).toEqual(['web', 'work']);
    expect(await bashComplete(env, sb.dir, 'up', 'wo')).toEqual(['work']);
    expect(await bashComplete(env, sb.dir, 'recover', '2026')).toEqual(['20261129-193005-4242']);
  });
});

describe('completion', () => {
  it('prints a script for zsh and fish, and refuses another shell', async () => {
    const sb = await useSandbox();
    const zsh = await runCli(['completion', 'zsh'], { env: sb.env, cwd: sb.dir });
    expect(zsh.stdout).toMatch(/^#compdef fleetcom\n[\s\S]*compdef _fleetcom fleetcom\n$/);
    const fish = await runCli(['completion', 'fish'], { env: sb.env, cwd: sb.dir });
    expect(fish.stdout).toContain("complete -c fleetcom -f -a '(fleetcom __complete -- ");
    const other = await runCli(['completion', 'tcsh'], { env: sb.env, cwd: sb.dir });
    expect({ code: other.exitCode, out: other.stdout }).toEqual({ code: 2, out: '' });
    expect(other.stderr).toContain("no script for 'tcsh' (bash, zsh or fish)");
  });

  it('answers the Tab from the command table as built, without commander: every command and option of it', async () => {
    const sb = await useSandbox();
    // The built bin carries the table's shape (scripts/bundle.mjs); a command or option added to
    // register.ts and not in the build, or left out of completion, differs here.
    const shape = programShape({ env: {}, cwd: sb.dir, stdout: { write: () => true }, stderr: { write: () => true }, now: () => 0 });
    const none: Sources = { task: async () => [], session: async () => [], snapshot: async () => [], shell: async () => [] };
    const lines = [[''], ['--'], ...shape.commands.map((c) => [c.name, '--'])];
    for (const words of lines) {
      const answer = await runCli(['__complete', '--', ...words], { env: sb.env, cwd: sb.dir });
      expect({ words, code: answer.exitCode, out: answer.stdout }).toEqual({ words, code: 0, out: formatCandidates(await candidates(shape, words, none)) });
    }
  });
});
