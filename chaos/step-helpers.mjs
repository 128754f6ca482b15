// What the steps of a history share: finding a slot's task, pane and live agent process,
// typing into it and waiting for the ground truth to say it happened, and \`up\` again.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseTruth } from './checker.mjs';
import { processAlive, until } from './world.mjs';

export const QUIT = { claude: '/exit', codex: '/exit', grok: '/exit', gemini: '/quit', opencode: '/exit', qwen: '/quit', kilo: '/exit', pi: '/quit', copilot: '/exit' };
export const SUBAGENT = { codex: 'delegate this', gemini: 'spawn subagent', opencode: 'spawn subagent', kilo: 'spawn subagent', qwen: 'spawn subagent', copilot: 'spawn subagent' };
/** What starts a new conversation in the same process. */
export const CLEAR = { claude: '/clear', qwen: '/clear', copilot: '/clear', pi: '/new' };
/** Agents that enter a conversation only at its first message (the opencode family). */
export const ENTERS_AT_MESSAGE = new Set(['opencode', 'kilo']);

export async function lsJson(world) {
  const r = await world.cli(['ls', '--json'], { deadlineMs: 20_000 });
  if (r.code !== 0) return null;
  try {
    return JSON.parse(r.stdout);
  } catch {
    return null;
  }
}

/**
 * The task of a slot's agent: the newest one in its directory, a running one first. `cached`
 * takes the last check's `ls` (a step that only types into a pane needs no newer one).
 */
export async function taskOf(world, slot, cached = false) {
  const tasks = (cached && world.lastLs) || (await lsJson(world)) || [];
  const mine = tasks.filter((t) => t.cwd === slot.cwd).sort((a, b) => b.id - a.id);
  return mine.find((t) => t.state !== 'exited') ?? mine[0] ?? null;
}

/** The live agent process of a slot (the newest the truth names in its directory). */
export function livePid(world, slot) {
  const truth = parseTruth(world.truthText());
  const pids = [...new Set(truth.filter((r) => r.cwd === slot.cwd).map((r) => r.pid))].reverse();
  return pids.find(processAlive) ?? null;
}

export function truthCount(world, predicate) {
  return parseTruth(world.truthText()).filter(predicate).length;
}

/** Types into the slot's pane and waits until the truth has a new record matching `predicate`. */
export async function typeAndWait(world, slot, text, predicate, ms = 10_000) {
  const task = await taskOf(world, slot, true);
  const pid = livePid(world, slot);
  if (!task || task.state === 'exited' || pid === null) return 'skipped (no live agent)';
  const before = truthCount(world, (r) => r.pid === pid && predicate(r));
  await world.tmux('send-keys', '-t', task.paneId, '-l', text);
  await world.tmux('send-keys', '-t', task.paneId, 'Enter');
  const seen = await until(() => truthCount(world, (r) => r.pid === pid && predicate(r)) > before, ms);
  return seen ? null : `no ${text} seen within ${ms} ms`;
}

export async function waitGone(pid, ms = 10_000) {
  return until(() => !processAlive(pid), ms);
}

export async function supervisorPid(world) {
  return world.supervisors()[0]?.pid ?? null;
}

export async function upAgain(world, args = []) {
  const r = await world.up(args);
  return r.answered ? null : 'the new supervisor did not answer';
}

/** The newest recipe this history saved, by name, or null. */
export function lastRecipe(world) {
  for (let n = 200; n >= 1; n--) if (existsSync(join(world.sessions, `chaos-${n}.json`))) return `chaos-${n}`;
  return null;
}

