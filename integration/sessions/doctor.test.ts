// `fleetcom doctor`: --fix on a recipe whose conversation is gone, --fleet on a running fleet,
// and its usage errors — the built CLI against the fakes on a private tmux server.
import { readFileSync, readdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeSlug } from '../../src/harness/index.js';
import { runCli } from '../helpers/cli.js';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { endedClaude, spawnIn, talk } from './kit.js';

describe('fleetcom doctor', () => {
  it('--fix rewrites an entry whose transcript is gone to plain claude, keeping a backup, and says so', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const w = await sb.mkdir('home', 'w');
    const { id } = await endedClaude(sb, fleet, w);
    const file = join(sb.dir, 'fix.json');
    expect((await fleet.cli('save', '--output', file)).exitCode).toBe(0);
    const before = readFileSync(file, 'utf8');
    await rm(join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', claudeSlug(w), `${id}.jsonl`));

    const checked = await fleet.cli('doctor', file);
    expect(checked.exitCode).toBe(1);
    expect(checked.stdout).toContain(`fleetcom doctor --fix ${file} starts it fresh`);
    expect(readFileSync(file, 'utf8')).toBe(before);

    const fixed = await fleet.cli('doctor', '--fix', file);
    expect(fixed.exitCode, fixed.stdout).toBe(0);
    expect(fixed.stderr).toContain(`fixed ~/w: claude --resume '${id}' → claude`);
    const backups = readdirSync(sb.dir).filter((n) => n.startsWith('fix.json.') && n.endsWith('.bak'));
    expect(backups).toHaveLength(1);
    expect(fixed.stderr).toContain(`the file before: ${join(sb.dir, backups[0]!)}`);
    expect(readFileSync(join(sb.dir, backups[0]!), 'utf8')).toBe(before);
    expect(JSON.parse(readFileSync(file, 'utf8')).dirs).toEqual({ '~/w': ['claude'] });
    expect((await fleet.cli('doctor', file)).exitCode).toBe(0);
  });

  it('--fleet checks the running tasks: a task holding its own conversation is fine; --json is one document', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const w = await sb.mkdir('home', 'w');
    const task = await spawnIn(fleet, w, 'claude');
    await talk(sb, task, 'claude', 'hello');
    const { conversationId } = await fleet.waitTask(task.id, (t) => t.conversationId !== null, 'its conversation');
    await fleet.run('sleep', '600');

    const r = await fleet.cli('doctor', '--fleet', '--json');
    expect(r.exitCode, r.stdout).toBe(0);
    const report = JSON.parse(r.stdout) as { source: string; failed: number; entries: Array<{ command: string; verdict: string; why: string }> };
    expect(report.source).toBe('the running fleet');
    expect(report.failed).toBe(0);
    expect(report.entries.map((e) => [e.command, e.verdict])).toEqual([[`claude --resume '${conversationId}'`, 'ok'], ['sleep 600', 'ok']]);
    expect(report.entries[0]?.why).toContain('open in this task only');
  });

  it('refuses ambiguous or meaningless arguments with exit 2', async () => {
    const sb = await useSandbox();
    await writeFile(join(sb.dir, 'x.json'), JSON.stringify({ version: 1, name: 'x', dirs: {} }));
    for (const [args, message] of [
      [['doctor'], 'doctor needs a SESSION (name or path) or --fleet'],
      [['doctor', './x.json', '--fleet'], 'doctor takes a SESSION or --fleet, not both'],
      [['doctor', '--fleet', '--fix'], '--fix rewrites a session file; it does not apply to --fleet'],
    ] as const) {
      const r = await runCli([...args], { env: sb.env, cwd: sb.dir });
      expect(r).toEqual({ stdout: '', stderr: `fleetcom: ${message}\ntry 'fleetcom --help'\n`, exitCode: 2 });
    }
    const none = await runCli(['doctor', './x.json'], { env: sb.env, cwd: sb.dir });
    expect(none).toMatchObject({ exitCode: 0, stdout: 'no entries\n' });
  });
});
