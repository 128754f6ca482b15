// `history` and `resume` against conversations the five fake agents really made in a temp
// HOME: each listed from its own store with the title its agent gave it, the one still running
// held by its task, and an ended one brought back into its own conversation by a prefix.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import type { LsRecord } from '../../src/control/protocol.js';
import { exitAgent, READY, spawnIn, startsAfter, talk, type Agent } from '../sessions/kit.js';
import { handSession, startDirectly } from '../helpers/by-hand.js';
import { typeLine, waitForText } from '../helpers/pane.js';

const AGENTS: Agent[] = ['claude', 'codex', 'grok', 'gemini', 'opencode'];
const SAID = (agent: Agent) => `${agent} please remember the seven blue elephants`;
/** The title each agent gives: codex its generated thread name (the fake's first six words), opencode its first 40 characters, the rest their first prompt. */
const TITLE = (agent: Agent) => (agent === 'codex' ? 'codex please remember the seven blue' : SAID(agent).slice(0, agent === 'opencode' ? 40 : undefined));

interface Row { agent: string; id: string; title: string; cwd: string; home: string; heldBy: null | { task: number } | { pid: number }; updatedAt: string; messages: number | null }

describe('history and resume with the fake agents', () => {
  it('lists every agent in a directory with its own title and holder, and resume brings an ended one back', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'w', 'app');
    const other = await sb.mkdir('home', 'w', 'other');
    const tasks: LsRecord[] = [];
    for (const agent of AGENTS) tasks.push(await spawnIn(fleet, dir, agent));
    for (const [i, agent] of AGENTS.entries()) await talk(sb, tasks[i]!, agent, SAID(agent));
    const ids = await waitFor(async () => {
      const listed = await Promise.all(tasks.map((t) => fleet.task(t.id)));
      return listed.every((t) => t.conversationId !== null) && listed.map((t) => t.conversationId!);
    }, { what: 'a conversation id for every agent' });
    // Every agent but claude ends; claude's conversation stays held by its task.
    for (const task of tasks.slice(1)) await exitAgent(sb, fleet, task);
    const elsewhere = await spawnIn(fleet, other, 'claude');
    await talk(sb, elsewhere, 'claude', 'not in app');

    const listed = await fleet.cliIn(dir, sb.env, 'history', '--json');
    expect(listed.exitCode, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as Row[];
    expect(rows.map((r) => [r.agent, r.id, r.title, r.cwd]).sort()).toEqual(AGENTS.map((a, i) => [a, ids[i], TITLE(a), dir]).sort());
    expect(rows.find((r) => r.agent === 'claude')?.heldBy).toEqual({ task: tasks[0]!.id });
    expect(rows.filter((r) => r.agent !== 'claude').map((r) => r.heldBy)).toEqual([null, null, null, null]);
    expect(rows.find((r) => r.agent === 'codex')).toMatchObject({ messages: 1, home: sb.env.CODEX_HOME });
    // Newest first.
    expect(rows.map((r) => r.updatedAt)).toEqual([...rows.map((r) => r.updatedAt)].sort().reverse());

    const all = JSON.parse((await fleet.cli('history', '--all', '--json', '--agent', 'claude')).stdout) as Row[];
    expect(all.map((r) => r.cwd).sort()).toEqual([dir, other].sort());

    const plain = await fleet.cliIn(dir, sb.env, 'history', '--limit', '2');
    expect(plain.stdout.trim().split('\n')).toHaveLength(2);

    const found = await fleet.cliIn(other, sb.env, 'history', '--all', '--search', 'BLUE ELEPHANTS', '--json');
    expect((JSON.parse(found.stdout) as Array<Row & { snippet: string }>).map((r) => [r.agent, r.snippet]).sort()).toEqual(
      // opencode's store holds its title only, which the fake cut before the words.
      AGENTS.filter((a) => a !== 'opencode').map((a) => [a, SAID(a)]).sort(),
    );

    // Held by a task: nothing started, the task named.
    const before = (await sb.agentStarts()).length;
    const held = await fleet.cli('resume', ids[0]!);
    expect(held.exitCode, held.stderr).toBe(0);
    expect(held.stderr).toContain(`open in task ${tasks[0]!.id}`);
    // An ended codex conversation, by a prefix: a task resumes it in its own directory.
    const codexId = ids[1]!;
    const resumed = await fleet.cli('resume', codexId.slice(0, 18), '--name', 'back');
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const [start] = await startsAfter(sb, before, 1);
    expect([start!.agent, start!.cwd, start!.argv.slice(0, 2)]).toEqual(['codex', dir, ['resume', codexId]]);
    const task = await fleet.task(resumed.stdout.trim());
    expect(task).toMatchObject({ name: 'back', cwd: dir, harness: 'codex' });
    await talk(sb, task, 'codex', 'and one more');
    await fleet.waitTask(task.id, (t) => t.conversationId === codexId, 'the resumed task in its own conversation');

    const unknown = await fleet.cli('resume', 'ffffffff');
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('no conversation ffffffff');
  });

  it('names the pid of a claude started by hand that has the conversation open, and resume refuses it', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'w', 'solo');
    const session = await handSession(sb, 'hand', dir);
    const hand = await startDirectly(sb, session, dir, ['claude']);
    await waitForText(sb, hand.paneId, READY.claude);
    await typeLine(sb, hand.paneId, 'typed by hand');
    await waitForText(sb, hand.paneId, 'fake reply to: typed by hand');

    // The holder is the claude process its registry record names (below the pane's own process).
    const [record] = readdirSync(join(sb.env.CLAUDE_CONFIG_DIR!, 'sessions')).filter((n) => n.endsWith('.json'));
    const pid = Number(record!.slice(0, -'.json'.length));
    const [row] = JSON.parse((await fleet.cliIn(dir, sb.env, 'history', '--json')).stdout) as Row[];
    expect(row).toMatchObject({ agent: 'claude', title: 'typed by hand', heldBy: { pid } });
    const plain = await fleet.cliIn(dir, sb.env, 'history');
    expect(plain.stdout).toContain(`[pid ${pid}] typed by hand`);
    const before = (await sb.agentStarts()).length;
    const refused = await fleet.cli('resume', row!.id);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`is open in pid ${pid} outside this fleet`);
    expect((await sb.agentStarts()).length).toBe(before);
  });
});
