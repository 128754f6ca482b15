// Shared steps of the session tests: agents spawned in their own directories, talked to and
// exited the way a user would, and session files read back.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LsRecord } from '../../src/control/protocol.js';
import type { Fleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import type { AgentStart, Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

export const READY = {
  claude: '? for shortcuts', codex: '›', grok: 'grok>', gemini: 'Type your message', opencode: 'Ask anything',
  pi: 'pi>', copilot: '? help',
  qwen: 'Type your message', kilo: 'Ask anything',
} as const;
export type Agent = keyof typeof READY;

/** `fleetcom run --cwd <dir> -- <command>` (plus options); returns the task's record. */
export async function spawnIn(fleet: Fleet, dir: string, command: string, ...options: string[]): Promise<LsRecord> {
  const r = await fleet.cli('run', '--cwd', dir, ...options, '--', command);
  if (r.exitCode !== 0) throw new Error(`run ${command} failed (${r.exitCode}): ${r.stderr}`);
  return fleet.task(r.stdout.trim());
}

export async function talk(sb: Sandbox, task: LsRecord, agent: Agent, message: string): Promise<void> {
  await waitForText(sb, task.paneId, READY[agent]);
  await typeLine(sb, task.paneId, message);
  await waitForText(sb, task.paneId, `fake reply to: ${message}`);
}

export async function exitAgent(sb: Sandbox, fleet: Fleet, task: LsRecord): Promise<LsRecord> {
  await typeLine(sb, task.paneId, '/exit');
  return fleet.waitTask(task.id, (t) => t.state === 'exited', 'exited');
}

/** A claude task in `dir` that was told `message` and exited: its record and conversation id. */
export async function endedClaude(sb: Sandbox, fleet: Fleet, dir: string, message = 'hello'): Promise<{ task: LsRecord; id: string }> {
  const task = await spawnIn(fleet, dir, 'claude');
  await talk(sb, task, 'claude', message);
  const ended = await exitAgent(sb, fleet, task);
  if (ended.conversationId === null) throw new Error(`task ${task.id} ended without a conversation id`);
  return { task: ended, id: ended.conversationId };
}

export interface SessionDoc {
  version?: number;
  name?: string;
  closed?: boolean;
  dirs: Record<string, Array<string | { cmd: string; group: string | null; name: string | null }>>;
}

export async function readDoc(file: string): Promise<SessionDoc> {
  return JSON.parse(await readFile(file, 'utf8')) as SessionDoc;
}

export function sessionsDir(sb: Sandbox): string {
  return join(sb.env.FLEETCOM_CONFIG_DIR ?? '', 'sessions');
}

export function recoveryDir(sb: Sandbox): string {
  return join(sessionsDir(sb), 'recovery');
}

/** Snapshot file names, oldest first (names sort by supervisor start time). */
export async function snapshots(sb: Sandbox): Promise<string[]> {
  try {
    return (await readdir(recoveryDir(sb))).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  } catch {
    return [];
  }
}

/** The agent starts after the first `skip` ones, once there are `count` of them. */
export function startsAfter(sb: Sandbox, skip: number, count: number): Promise<AgentStart[]> {
  return waitFor(async () => {
    const starts = (await sb.agentStarts()).slice(skip);
    return starts.length >= count && starts;
  }, { what: `${count} agent start(s) after the first ${skip}` });
}

/** `~/…` of a directory under the sandbox HOME, as a session file writes it. */
export function tilde(sb: Sandbox, dir: string): string {
  return dir === sb.home ? '~' : `~${dir.slice(sb.home.length)}`;
}

/** What copilot writes when the user answers its folder-trust question "Yes, and remember this folder". */
export async function trustCopilotFolder(sb: Sandbox, dir: string): Promise<void> {
  const home = sb.env.COPILOT_HOME ?? join(sb.home, '.copilot');
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'config.json'), `// User settings belong in settings.json.\n${JSON.stringify({ trustedFolders: [dir] })}\n`);
}
