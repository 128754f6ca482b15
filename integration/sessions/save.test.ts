// `fleetcom save` from a shell outside tmux (the sandbox env has no TMUX): every agent by the
// channel that knows its conversation, while it runs and after it exited.
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { exitAgent, readDoc, sessionsDir, spawnIn, talk, tilde } from './kit.js';

const SAVED = /^saved '(.+)': (\d+) command\(s\) \((\d+) resumable\)$/m;

describe('fleetcom save', () => {
  it('stores each agent as its resume command by capture and pin while running, by exit hint after', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = (name: string) => sb.mkdir('home', 'w', name);
    const [a, b, c, d, e] = await Promise.all(['a', 'b', 'c', 'd', 'e'].map(dir));

    const claude = await spawnIn(fleet, a!, 'claude');
    const codex = await spawnIn(fleet, b!, 'codex');
    const grok = await spawnIn(fleet, c!, 'grok');
    const fresh = await spawnIn(fleet, d!, 'claude');
    await spawnIn(fleet, e!, 'sleep 600', '--name', 'waiter', '--group', 'misc');
    await talk(sb, claude, 'claude', 'hello claude');
    await talk(sb, codex, 'codex', 'hello codex');
    await talk(sb, grok, 'grok', 'hello grok');
    const ids = {
      claude: (await fleet.waitTask(claude.id, (t) => t.idSource === 'capture', 'captured')).conversationId,
      codex: (await fleet.waitTask(codex.id, (t) => t.idSource === 'capture', 'captured')).conversationId,
      grok: (await fleet.waitTask(grok.id, (t) => t.idSource === 'pinned', 'pinned')).conversationId,
    };
    await waitForText(sb, fresh.paneId, '? for shortcuts');

    const running = await fleet.cli('save', 'work');
    expect(running.exitCode).toBe(0);
    expect(running.stdout).toBe('');
    expect(running.stderr).toMatch(SAVED);
    expect(SAVED.exec(running.stderr)?.slice(1)).toEqual(['work', '5', '3']);
    const file = join(sessionsDir(sb), 'work.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readDoc(file)).toEqual({
      version: 1,
      name: 'work',
      dirs: {
        [tilde(sb, a!)]: [`claude --resume '${ids.claude}'`],
        [tilde(sb, b!)]: [`codex resume '${ids.codex}'`],
        [tilde(sb, c!)]: [`grok --resume '${ids.grok}'`],
        [tilde(sb, d!)]: ['claude'],
        [tilde(sb, e!)]: [{ cmd: 'sleep 600', group: 'misc', name: 'waiter' }],
      },
    });

    // After the exits the hints decide (the same conversations); a finished task is still saved.
    for (const t of [claude, codex, grok]) expect((await exitAgent(sb, fleet, t)).idSource).toBe('exit-hint');
    // codex targeted at an existing conversation: the pin (channel 3) while it runs.
    const target = await spawnIn(fleet, d!, `codex resume ${ids.codex}`);
    expect(target).toMatchObject({ idSource: 'pinned', conversationId: ids.codex });
    const exited = await fleet.cli('save', 'work');
    expect(exited.exitCode).toBe(0);
    expect(SAVED.exec(exited.stderr)?.slice(1)).toEqual(['work', '6', '4']);
    expect((await readDoc(file)).dirs).toEqual({
      [tilde(sb, a!)]: [`claude --resume '${ids.claude}'`],
      [tilde(sb, b!)]: [`codex resume '${ids.codex}'`],
      [tilde(sb, c!)]: [`grok --resume '${ids.grok}'`],
      [tilde(sb, d!)]: ['claude', `codex resume '${ids.codex}'`],
      [tilde(sb, e!)]: [{ cmd: 'sleep 600', group: 'misc', name: 'waiter' }],
    });

    // --stdout prints the same document; --output writes where the caller says.
    const printed = await fleet.cli('save', 'work', '--stdout');
    expect(printed.exitCode).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(await readDoc(file));
    const out = await fleet.cliIn(a!, sb.env, 'save', '--output', 'fleet.json');
    expect(out.exitCode).toBe(0);
    expect(await readDoc(join(a!, 'fleet.json'))).toMatchObject({ name: 'fleet', dirs: (await readDoc(file)).dirs });
  });

  it('refuses an empty name, and a name whose file holds another session', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const empty = await fleet.cli('save', '  ');
    expect(empty).toMatchObject({ exitCode: 2, stdout: '' });
    expect(empty.stderr).toContain('must not be empty');
    await fleet.run('sleep 600');
    expect((await fleet.cli('save', 'a.b')).exitCode).toBe(0);
    const clash = await fleet.cli('save', 'a/b');
    expect(clash.exitCode).toBe(1);
    expect(clash.stderr).toContain("holds the session 'a.b'");
    expect((await readDoc(join(sessionsDir(sb), 'a_b.json'))).name).toBe('a.b');
  });

  it('finds a codex with an opaque notify route by store correlation, and leaves ambiguous ones plain', async () => {
    const sb = await useSandbox();
    // Two notify lines: the route is opaque, so fleetcom neither instruments nor captures.
    await sb.mkdir('home', '.codex');
    await writeFile(join(sb.env.CODEX_HOME!, 'config.toml'), 'notify = ["/bin/true"]\nnotify = ["/bin/true"]\n');
    const fleet = await startFleet(sb);
    const [solo, pair, half] = await Promise.all(['solo', 'pair', 'half'].map((n) => sb.mkdir('home', 'w', n)));

    const alone = await spawnIn(fleet, solo!, 'codex');
    const twins = [await spawnIn(fleet, pair!, 'codex'), await spawnIn(fleet, pair!, 'codex')];
    const halves = [await spawnIn(fleet, half!, 'codex'), await spawnIn(fleet, half!, 'codex')];
    await talk(sb, alone, 'codex', 'only me here');
    await talk(sb, twins[0]!, 'codex', 'first twin');
    await talk(sb, twins[1]!, 'codex', 'second twin');
    await talk(sb, halves[0]!, 'codex', 'the one who talked');
    expect((await fleet.task(alone.id)).conversationId).toBeNull(); // no capture, no pin

    const saved = await fleet.cli('save', '--stdout');
    expect(saved.exitCode).toBe(0);
    const doc = JSON.parse(saved.stdout) as { dirs: Record<string, string[]> };
    const [correlated] = doc.dirs[tilde(sb, solo!)] ?? [];
    expect(correlated).toMatch(/^codex resume '[0-9a-f-]{36}'$/);
    expect(doc.dirs[tilde(sb, pair!)]).toEqual(['codex', 'codex']);
    expect(doc.dirs[tilde(sb, half!)]).toEqual(['codex', 'codex']);

    // Its exit hint names the same conversation the store did.
    const exited = await exitAgent(sb, fleet, alone);
    expect(exited.idSource).toBe('exit-hint');
    expect(correlated).toBe(`codex resume '${exited.conversationId}'`);
  });
});
