// wait over several agents on the supervisor's own state and feed: --any returns the first that
// meets the condition, --all all of them, a timeout says what each task is doing, a task that
// exits ends a wait it can no longer meet; and a turn whose start and end reach fleetcom in one
// batch is still a turn (counted, an event, an alert), where before it was invisible.
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { LsRecord } from '../../src/control/protocol.js';
import { typeLine } from '../helpers/pane.js';
import { waitFor } from '../helpers/wait-for.js';
import { listening, streamCli } from './stream-cli.js';
import { world, type World } from './world.js';

/** An agent whose replies wait for its own gate file; its first message sent, so it works. */
async function heldAgent(w: World, agent: 'claude' | 'codex' | 'gemini', name: string): Promise<{ task: LsRecord; gate: string }> {
  const gate = join(w.sb.dir, `gate-${name}`);
  const variable = { claude: 'FAKE_CLAUDE_REPLY_GATE', codex: 'FAKE_CODEX_REPLY_GATE', gemini: 'FAKE_GEMINI_REPLY_GATE' }[agent];
  const dir = await w.sb.mkdir('home', 'w', name);
  const r = await w.fleet.cliIn(w.sb.dir, { ...w.sb.env, [variable]: gate }, 'run', '--cwd', dir, '--name', name, '--', agent);
  if (r.exitCode !== 0) throw new Error(r.stderr);
  const id = r.stdout.trim();
  expect((await w.send(id, `work for ${name}`)).reply.verdict).toBe('submitted');
  return { task: await w.fleet.waitTask(id, (t) => t.attention === 'working', `${name} working`), gate };
}

const open = (gate: string) => writeFileSync(gate, '');

describe('wait', () => {
  it('--any over five agents returns the one whose turn ended; --all times out saying what each does, then returns them all', async () => {
    const w = await world();
    const held = [
      await heldAgent(w, 'claude', 'c1'), await heldAgent(w, 'codex', 'x1'), await heldAgent(w, 'gemini', 'g1'),
      await heldAgent(w, 'claude', 'c2'), await heldAgent(w, 'codex', 'x2'),
    ];
    const ids = held.map((h) => String(h.task.id));
    const any = w.fleet.cli('wait', '--any', ...ids);
    open(held[2]!.gate); // gemini's turn ends
    const first = await any;
    expect(first).toMatchObject({ exitCode: 0, stdout: `${ids[2]}\n`, stderr: '' });

    const late = await w.fleet.cli('wait', '--all', ...ids, '--timeout', '1.5');
    expect(late.exitCode).toBe(1);
    expect(late.stdout).toBe(`${ids[2]}\n`);
    expect(late.stderr).toMatch(/^fleetcom: wait timed out\n/);
    expect(late.stderr).toMatch(new RegExp(`task ${ids[0]} \\(c1\\): working on turn 1 for \\d+s`));
    expect(late.stderr).toMatch(new RegExp(`task ${ids[2]} \\(g1\\): waiting after turn 1 for \\d+s`));

    const all = w.fleet.cli('wait', '--all', '--json', ...ids);
    for (const h of held) open(h.gate);
    const done = await all;
    expect(done.exitCode, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout) as { met: boolean; tasks: Array<{ task: number; met: boolean; turnsEnded: number; attention: string }> };
    expect(result.met).toBe(true);
    expect(result.tasks.map((t) => [t.task, t.met, t.turnsEnded, t.attention])).toEqual(held.map((h) => [h.task.id, true, 1, 'waiting']));
  });

  it('needs-you: a permission meets it; a task that exits ends a wait it can never meet; bad usage is exit 2', async () => {
    const w = await world();
    const claude = await w.agent('claude');
    const waiting = w.fleet.cli('wait', String(claude.id), '--until', 'needs-you', '--turn', '2');
    expect((await w.send(claude.id, 'hi')).reply.turn).toBe(1);
    expect((await w.send(claude.id, 'please fake-permission')).reply.turn).toBe(2);
    expect(await waiting).toMatchObject({ exitCode: 0, stdout: `${claude.id}\n` });
    const exits = w.fleet.cli('wait', String(claude.id), '--turn', '9');
    await typeLine(w.sb, claude.paneId, '2'); // refused: the turn ends unanswered
    await typeLine(w.sb, claude.paneId, '/exit');
    const never = await exits;
    expect(never.exitCode).toBe(1);
    expect(never.stderr).toMatch(new RegExp(`^fleetcom: wait not met: task ${claude.id} exited with status 0\\n`));
    expect((await w.fleet.cli('wait', String(claude.id), '--until', 'exited')).exitCode).toBe(0);
    for (const bad of [['--any', '--all'], ['--until', 'idle'], ['--turn', '0'], ['--timeout', 'soon'], ['--until', 'exited', '--turn', '1']]) {
      const r = await w.fleet.cli('wait', String(claude.id), ...bad);
      expect(r.exitCode, bad.join(' ')).toBe(2);
    }
    expect((await w.fleet.cli('wait', '99')).stderr).toMatch(/no task 99 in this fleet/);
  });

  it('counts a turn whose start and end reach fleetcom in one batch: the turn, its events, the log and an alert', async () => {
    const log = join(tmpdir(), `notified-${process.pid}-${Date.now()}.log`);
    onTestFinished(() => rmSync(log, { force: true }));
    const notify = `printf '%s|%s\\n' "$FLEETCOM_TASK_ID" "$FLEETCOM_ATTENTION" >> '${log}'`;
    const w = await world({ config: { notify: { delaySeconds: 0, cooldownSeconds: 0 } }, args: ['--notify-command', notify] });
    const task = await w.agent('claude');
    const capture = (await w.sb.agentStarts()).find((a) => a.agent === 'claude')?.env.FLEETCOM_CAPTURE_FILE ?? '';
    const events = capture.replace(/\.json$/, '.events');
    await waitFor(() => existsSync(events), { what: 'the events file' });
    const conversation = (JSON.parse(readFileSync(events, 'utf8').split('\n')[0]!) as { session_id: string }).session_id;
    const feed = streamCli(['events', '--json'], w.sb.env, w.sb.dir);
    onTestFinished(() => void feed.stop());
    await listening(feed, () => w.fleet.run('sleep', '1000'));
    // claude's two hooks, as one append: the watcher reads them in one batch.
    const payload = (event: string, more: object) => JSON.stringify({ session_id: conversation, hook_event_name: event, cwd: w.sb.dir, ...more });
    appendFileSync(events, `${payload('UserPromptSubmit', { prompt: 'quick' })}\n${payload('Stop', { last_assistant_message: 'done at once' })}\n`);
    expect((await w.fleet.cli('wait', String(task.id), '--turn', '1')).exitCode).toBe(0);
    expect((await w.fleet.task(task.id)).turn).toBe(1);
    expect(await w.fleet.log()).toMatch(new RegExp(`task ${task.id} working \\(turn 1\\), then waiting \\(turn 1\\)`));
    expect((await w.fleet.cli('output', String(task.id))).stdout).toBe('done at once\n');
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes(`${task.id}|waiting`), { what: 'the alert of the turn that ended' });
    await feed.line((l) => l.includes('"type":"waiting"'), 'the waiting event');
    const mine = feed.lines().map((l) => JSON.parse(l) as { type: string; task: number; turn?: number }).filter((e) => e.task === task.id);
    expect(mine.map((e) => `${e.type} ${e.turn}`)).toEqual(['working 1', 'waiting 1']);
  });
});
