// A conversation is never resumed while it is open elsewhere (load, recover, rerun), `doctor`
// says what a recipe would do before anything starts, and a task's agent home travels with it
// through save and load — with the fake claude writing its session registry like the real one.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_HOME_VARS, claudeSlug } from '../../src/harness/index.js';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import type { Sandbox } from '../helpers/sandbox.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { endedClaude, exitAgent, READY, readDoc, recoveryDir, sessionsDir, snapshots, spawnIn, talk } from './kit.js';

function transcript(home: string, cwd: string, id: string): string {
  return join(home, 'projects', claudeSlug(cwd), `${id}.jsonl`);
}

/** A claude started by hand in a tmux session of its own (not a fleetcom task); its pane and pid. */
async function claudeOutside(sb: Sandbox, cwd: string, id: string): Promise<{ pane: string; pid: number }> {
  const name = `outside-${id.slice(0, 8)}`;
  const pane = (await sb.tmux('new-session', '-d', '-P', '-F', '#{pane_id}', '-s', name, '-c', cwd, `claude --resume ${id}`)).trim();
  await waitForText(sb, pane, READY.claude);
  const registry = join(sb.env.CLAUDE_CONFIG_DIR!, 'sessions');
  const pid = await waitFor(() => {
    for (const file of existsSync(registry) ? readdirSync(registry) : []) {
      const record = JSON.parse(readFileSync(join(registry, file), 'utf8')) as { pid: number; sessionId: string };
      if (record.sessionId === id) return record.pid;
    }
    return false;
  }, { what: `a registry record naming ${id}` });
  return { pane, pid };
}

describe('a conversation open elsewhere', () => {
  it('doctor names a deleted transcript, a gone directory and a conversation open in another pane (exit 1); load starts only what is safe', async () => {
    const sb = await useSandbox();
    const first = await startFleet(sb);
    const [a, b, c, d] = await Promise.all(['a', 'b', 'c', 'd'].map((n) => sb.mkdir('home', 'w', n)));
    const ids: string[] = [];
    for (const dir of [a!, b!, c!]) ids.push((await endedClaude(sb, first, dir, `work in ${dir}`)).id);
    await spawnIn(first, d!, 'sleep 600');
    expect((await first.cli('save', 'work')).exitCode).toBe(0);
    expect((await first.cli('down')).exitCode).toBe(0);
    const [idA, idB, idC] = ids as [string, string, string];

    await rm(transcript(sb.env.CLAUDE_CONFIG_DIR!, a!, idA));
    await rm(b!, { recursive: true });
    const outside = await claudeOutside(sb, c!, idC);

    const doctor = await first.cli('doctor', 'work');
    expect(doctor.exitCode, doctor.stderr).toBe(1);
    expect(doctor.stdout).toContain(`no claude transcript ${transcript(sb.env.CLAUDE_CONFIG_DIR!, a!, idA)}`);
    expect(doctor.stdout).toContain(`the directory ${b} does not exist`);
    expect(doctor.stdout).toContain(`open in pid ${outside.pid} on /dev/pts/`);
    expect(doctor.stdout).toContain(`(tmux pane ${outside.pane})`);
    expect(doctor.stdout).toContain(`claude registry ${join(sb.env.CLAUDE_CONFIG_DIR!, 'sessions')}`);
    expect(doctor.stderr).toContain('4 entries, 1 would start, 3 would fail');
    const json = JSON.parse((await first.cli('doctor', 'work', '--json')).stdout) as { entries: Array<{ command: string; verdict: string }> };
    expect(json.entries.map((e) => [e.command, e.verdict])).toEqual([
      [`claude --resume '${idA}'`, 'fail'], [`claude --resume '${idB}'`, 'fail'], [`claude --resume '${idC}'`, 'fail'], ['sleep 600', 'ok'],
    ]);

    const second = await startFleet(sb, { name: 'second' });
    const loaded = await second.cli('load', 'work');
    expect(loaded.exitCode, loaded.stderr).toBe(0);
    expect(loaded.stderr).toContain('skipping 1 task(s) in ~/w/b: the directory does not exist');
    expect(loaded.stderr).toContain(`skipped: ${c}: claude --resume '${idC}': conversation ${idC} is open in pid ${outside.pid}`);
    // The conversation with a deleted transcript is started as written (claude itself says it is gone).
    expect((await second.ls()).map((t) => t.command).sort()).toEqual([`claude --resume '${idA}'`, 'sleep 600']);
  });

  it('a second load of the same recipe says in one line that its conversations are already open', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const w = await sb.mkdir('home', 'w');
    const one = await spawnIn(fleet, w, 'claude');
    const two = await spawnIn(fleet, w, 'claude');
    await talk(sb, one, 'claude', 'first');
    await talk(sb, two, 'claude', 'second');
    await fleet.waitTask(two.id, (t) => t.conversationId !== null, 'its conversation');
    expect((await fleet.cli('save', '--output', join(sb.dir, 'twice.json'))).exitCode).toBe(0);
    await writeFile(join(sb.dir, 'twice.json'), (await readFile(join(sb.dir, 'twice.json'), 'utf8')).replace('"claude', '"sleep 600", "claude'));

    const again = await fleet.cli('load', join(sb.dir, 'twice.json'));
    expect(again.exitCode, again.stderr).toBe(0);
    const skipped = again.stderr.split('\n').filter((l) => l.startsWith('skipped: '));
    expect(skipped).toEqual([expect.stringMatching(/^skipped: 2 task\(s\): its conversation is already open in this fleet; not started again \(was this recipe loaded twice\?\): .*: claude --resume '.+', .*: claude --resume '.+'$/)]);
    expect(again.stderr).toContain("loaded 'twice': 1 task(s)");
    expect((await fleet.ls()).map((t) => t.command)).toEqual(['claude', 'claude', 'sleep 600']);
  });

  it('rerun refuses while the conversation is open in another pane, and works once it is closed; the fake keeps its registry record only while it runs', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const w = await sb.mkdir('home', 'w');
    const { task, id } = await endedClaude(sb, fleet, w);
    const registry = join(sb.env.CLAUDE_CONFIG_DIR!, 'sessions');
    await waitFor(() => readdirSync(registry).length === 0, { what: 'the exited claude to remove its registry record' });

    const outside = await claudeOutside(sb, w, id);
    const record = JSON.parse(readFileSync(join(registry, `${outside.pid}.json`), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ pid: outside.pid, sessionId: id, cwd: w, status: 'idle', procStart: expect.stringMatching(/^\d+$/) });

    const refused = await fleet.cli('rerun', String(task.id));
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`task ${task.id} not rerun: conversation ${id} is open in pid ${outside.pid} on /dev/pts/`);
    expect(await fleet.task(task.id)).toMatchObject({ state: 'exited', run: 0 });

    await typeLine(sb, outside.pane, '/exit');
    await waitFor(() => !existsSync(join(registry, `${outside.pid}.json`)), { what: 'the record removed at exit' });
    const rerun = await fleet.cli('rerun', String(task.id));
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(await fleet.task(task.id)).toMatchObject({ run: 1, command: `claude --resume '${id}'` });
  });

  it('a codex conversation held by a codex outside the fleet (its rollout open) is skipped by load', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const w = await sb.mkdir('home', 'w');
    const task = await spawnIn(fleet, w, 'codex');
    await talk(sb, task, 'codex', 'write the tests');
    const id = (await exitAgent(sb, fleet, task)).conversationId!;
    const pane = (await sb.tmux('new-session', '-d', '-P', '-F', '#{pane_id}', '-s', 'outside', '-c', w, `codex resume ${id}`)).trim();
    await waitForText(sb, pane, READY.codex);
    await writeFile(join(sb.dir, 'codex.json'), JSON.stringify({ version: 1, name: 'codex', dirs: { [w]: [`codex resume '${id}'`] } }));

    const loaded = await fleet.cli('load', './codex.json');
    expect(loaded.exitCode, loaded.stderr).toBe(0);
    expect(loaded.stderr).toMatch(new RegExp(`skipped: .*conversation ${id} is open in pid \\d+ on /dev/pts/\\d+ \\(tmux pane ${pane}\\)`));
    expect(loaded.stderr).toContain("loaded 'codex': 0 task(s)");
    const doctor = await fleet.cli('doctor', './codex.json');
    expect(doctor.exitCode).toBe(1);
    expect(doctor.stdout).toContain('open files in /proc');
  });
});

describe('agent homes in a recipe', () => {
  it('two accounts: each agent is saved with its home and loaded back into it from a shell without the variable', async () => {
    const sb = await useSandbox();
    const first = await startFleet(sb);
    const [a, b] = await Promise.all(['a', 'b'].map((n) => sb.mkdir('home', 'w', n)));
    const workHome = join(sb.home, '.claude-work');
    const run = await first.cliIn(sb.dir, { ...sb.env, CLAUDE_CONFIG_DIR: workHome }, 'run', '--cwd', a!, '--', 'claude');
    expect(run.exitCode, run.stderr).toBe(0);
    const work = await first.task(run.stdout.trim());
    const personal = await spawnIn(first, b!, 'claude');
    await talk(sb, work, 'claude', 'for the company');
    await talk(sb, personal, 'claude', 'for me');
    const workId = (await exitAgent(sb, first, work)).conversationId!;
    const personalId = (await exitAgent(sb, first, personal)).conversationId!;
    expect(existsSync(transcript(workHome, a!, workId))).toBe(true);

    expect((await first.cli('save', 'accounts')).exitCode).toBe(0);
    const doc = await readDoc(join(sessionsDir(sb), 'accounts.json'));
    expect(doc.version).toBe(1);
    expect(doc.dirs).toEqual({
      '~/w/a': [{ cmd: `claude --resume '${workId}'`, group: null, name: null, env: { CLAUDE_CONFIG_DIR: '~/.claude-work' } }],
      '~/w/b': [`claude --resume '${personalId}'`],
    });
    expect((await first.cli('doctor', 'accounts')).exitCode).toBe(0);
    expect((await first.cli('down')).exitCode).toBe(0);
    const [snapshot] = await snapshots(sb);
    expect((await readDoc(join(recoveryDir(sb), snapshot!))).dirs['~/w/a']).toEqual(doc.dirs['~/w/a']);

    // The caller's shell has the default home only: the entry's env brings the other back.
    const second = await startFleet(sb, { name: 'second' });
    const loaded = await second.cli('load', 'accounts');
    expect(loaded.exitCode, loaded.stderr).toBe(0);
    const tasks = await second.ls();
    const back = tasks.find((t) => t.cwd === a)!;
    await talk(sb, back, 'claude', 'still the company');
    expect(readFileSync(transcript(workHome, a!, workId), 'utf8')).toContain('still the company');
    const mine = tasks.find((t) => t.cwd === b)!;
    await talk(sb, mine, 'claude', 'still me');
    expect(readFileSync(transcript(sb.env.CLAUDE_CONFIG_DIR!, b!, personalId), 'utf8')).toContain('still me');
  });

  it('refuses a recipe that sets any other variable, before anything starts', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const w = await sb.mkdir('home', 'w');
    await writeFile(join(sb.dir, 'evil.json'), JSON.stringify({ version: 1, name: 'evil', dirs: { [w]: [{ cmd: 'sleep 600', env: { LD_PRELOAD: '/tmp/x.so' } }] } }));
    const r = await fleet.cli('load', './evil.json');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`env.LD_PRELOAD: only the agent homes ${[...AGENT_HOME_VARS].join(', ')} may be set`);
    expect(await fleet.ls()).toEqual([]);
  });
});
