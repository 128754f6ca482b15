// The whole promise for every agent at once: a fleet of claude, codex, grok, gemini, opencode,
// qwen, kilo, pi and copilot is saved, its tmux server killed, and `load` brings each back into its own
// conversation, which then goes on (the fakes refuse an id they do not have).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSqliteTable } from '../../src/harness/index.js';
import { startFleet } from '../helpers/fleet.js';
import { processAlive, useSandbox } from '../helpers/sandbox.js';
import { readFile } from 'node:fs/promises';
import { waitFor } from '../helpers/wait-for.js';
import type { LsRecord } from '../../src/control/protocol.js';
import { readDoc, sessionsDir, spawnIn, startsAfter, talk, tilde, trustCopilotFolder, type Agent } from './kit.js';

const AGENTS: Agent[] = [
  'claude', 'codex', 'grok', 'gemini', 'opencode',
  'qwen', 'kilo',
  'pi', 'copilot',
];
const RESUME = {
  claude: '--resume', codex: 'resume', grok: '--resume', gemini: '--resume', opencode: '-s',
  qwen: '--resume', kilo: '-s',
  pi: '--session', copilot: '--resume',
} as const;
/** The agents whose store is a database of opencode's kind, and the variable naming it. */
const DATABASES = [
  ['opencode', 'OPENCODE_DB'],
  ['kilo', 'KILO_DB'],
] as const;

describe('a fleet of every agent', () => {
  it('is saved, its tmux server killed, and load brings every agent back into its own conversation', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dirs = await Promise.all(AGENTS.map((agent) => sb.mkdir('home', 'w', agent)));
    // copilot asks whether to trust a folder until the user said "remember" (fleetcom never answers).
    await trustCopilotFolder(sb, dirs[AGENTS.indexOf('copilot')]!);
    const tasks: LsRecord[] = [];
    for (const [i, agent] of AGENTS.entries()) tasks.push(await spawnIn(fleet, dirs[i]!, agent));
    for (const [i, agent] of AGENTS.entries()) await talk(sb, tasks[i]!, agent, `${agent} remembers this`);
    // claude, codex, opencode and kilo are heard live (hook, notifier, plugin); grok, gemini and qwen by their pin.
    const ids = await waitFor(async () => {
      const listed = await Promise.all(tasks.map((t) => fleet.task(t.id)));
      return listed.every((t) => t.conversationId !== null) && listed.map((t) => t.conversationId!);
    }, { what: 'a conversation id for every agent' });
    expect(new Set(ids).size).toBe(AGENTS.length);
    // The opencode plugin also says it finished its turn: it waits for the user.
    for (const [agent] of DATABASES) {
      const at = AGENTS.indexOf(agent);
      await fleet.waitTask(tasks[at]!.id, (t) => t.attention === 'waiting', `${agent} waiting after its turn`);
      expect(ids[at]).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    }

    expect((await fleet.cli('save', 'five')).exitCode).toBe(0);
    const doc = await readDoc(join(sessionsDir(sb), 'five.json'));
    expect(doc.dirs).toEqual(Object.fromEntries(AGENTS.map((agent, i) => [tilde(sb, dirs[i]!), [`${agent} ${RESUME[agent]} '${ids[i]}'`]])));

    const supervisor = Number.parseInt(await readFile(join(sb.env.FLEETCOM_RUNTIME_DIR!, 'lock'), 'utf8'), 10);
    await sb.killServer();
    await waitFor(() => !processAlive(supervisor), { what: `the supervisor (pid ${supervisor}) to exit with its server` });

    const fresh = await startFleet(sb);
    const before = (await sb.agentStarts()).length;
    const loaded = await fresh.cli('load', 'five');
    expect(loaded.exitCode, loaded.stderr).toBe(0);
    const starts = await startsAfter(sb, before, AGENTS.length);
    expect(starts.map((s) => [s.agent, s.cwd, s.argv.slice(0, 2)]).sort()).toEqual(
      AGENTS.map((agent, i) => [agent, dirs[i], [RESUME[agent], ids[i]]]).sort(),
    );
    // Each goes on in its conversation: a second message lands in the same store entry.
    const back = await fresh.ls();
    for (const [i, agent] of AGENTS.entries()) {
      const task = back.find((t) => t.cwd === dirs[i])!;
      await talk(sb, task, agent, `${agent} goes on`);
      await fresh.waitTask(task.id, (t) => t.conversationId === ids[i], `${agent} in conversation ${ids[i]}`);
    }
    for (const [agent, variable] of DATABASES) {
      const sessions = readSqliteTable(sb.env[variable]!, 'session');
      expect(sessions.kind === 'rows' && sessions.rows.map((r) => r[0]), agent).toEqual([ids[AGENTS.indexOf(agent)]]);
    }
  });
});
