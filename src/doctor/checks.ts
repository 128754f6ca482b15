// `fleetcom doctor`: what would happen to each entry of a recipe (or task of the fleet) if it
// were started now — without starting anything. Reads the file system and /proc only.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { detect, resolveHome, splitWords, storedConversation, type HarnessName } from '../harness/index.js';
import { conversationLiveness, fleetHolderOf, holderText, type FleetHolder, type LivenessOptions } from '../ownership/index.js';

export type CheckName = 'directory' | 'program' | 'conversation' | 'ownership';

/** One check: passed (true), failed (false) or could not tell (null). */
export interface Check {
  check: CheckName;
  ok: boolean | null;
  detail: string;
  /** What was read to decide (the ownership check names its source). */
  source?: string;
}

export type Verdict = 'ok' | 'unsure' | 'fail';

export interface EntryReport {
  dir: string;
  command: string;
  name: string | null;
  verdict: Verdict;
  why: string;
  todo: string;
  /** A resume entry whose conversation cannot be resumed: --fix starts it fresh instead. */
  unresumable: boolean;
  checks: Check[];
}

export interface EntryToCheck {
  /** The directory as written, and as resolved. */
  dir: string;
  cwd: string;
  command: string;
  name: string | null;
  /** The environment it would start with: the caller's, with the entry's agent homes on top. */
  env: Record<string, string>;
  /** The fleet task this entry is (doctor --fleet): its own process is not "elsewhere". */
  self?: { taskId: number; paneId: string };
}

export interface DoctorContext {
  /** Running tasks of the fleet, with the conversation each holds. */
  fleet: readonly FleetHolder[];
  /** The fleet's tmux server socket when known: a pane id means a fleet task only there. */
  tmuxSocket: string | null;
  /** The fix the user can run for an unresumable entry. */
  fixHint: string;
  liveness?: LivenessOptions;
}

/**
 * What one doctor run has looked up already: a recipe of 30 000 entries running one program
 * spent 4 of its 5 s in the same PATH search, and a directory named by many entries is stat-ed once.
 */
interface Seen {
  dirs: Map<string, boolean>;
  programs: Map<string, string | null>;
}
const seenBy = new WeakMap<DoctorContext, Seen>();

function seenOf(context: DoctorContext): Seen {
  let seen = seenBy.get(context);
  if (seen === undefined) {
    seen = { dirs: new Map(), programs: new Map() };
    seenBy.set(context, seen);
  }
  return seen;
}

export function checkEntry(entry: EntryToCheck, context: DoctorContext): EntryReport {
  const seen = seenOf(context);
  const checks: Check[] = [checkDirectory(entry, seen), checkProgram(entry, seen)];
  const detection = detect(entry.command);
  let unresumable = false;
  if (detection.form === 'resume') {
    const home = resolveHome(detection.harness, entry.env);
    const stored = storedConversation(detection.harness, home, entry.cwd, detection.targetId);
    checks.push({ check: 'conversation', ok: stored.found, detail: stored.found ? `found: ${stored.path}` : stored.why });
    unresumable = !stored.found;
    if (stored.found) checks.push(checkOwnership(detection.harness, home, detection.targetId, entry, context));
  }
  return { dir: entry.dir, command: entry.command, name: entry.name, ...summarize(checks, unresumable, context), unresumable, checks };
}

function checkDirectory(entry: EntryToCheck, seen: Seen): Check {
  let ok = seen.dirs.get(entry.cwd);
  if (ok === undefined) {
    ok = isDirectory(entry.cwd);
    seen.dirs.set(entry.cwd, ok);
  }
  return { check: 'directory', ok, detail: ok ? entry.cwd : `the directory ${entry.cwd} does not exist` };
}

/** Without an exception for a path that does not exist (each cost ~20 µs more). */
function isDirectory(dir: string): boolean {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false; // not a directory on the way (ENOTDIR), or not ours to look into
  }
}

// Words a shell runs itself: not looked up on PATH.
const SHELL_WORDS = new Set(['cd', 'exec', 'export', 'source', '.', 'eval', 'set', 'unset', 'exit', 'wait', 'trap', 'ulimit', 'umask', 'if', 'for', 'while', 'until', 'case', 'time', '{', '(', '!']);
const PLAIN_WORD = /^[A-Za-z0-9_./~+@%:,-]+$/;

function checkProgram(entry: EntryToCheck, seen: Seen): Check {
  const detection = detect(entry.command);
  const word = detection.form === 'opaque' ? splitWords(entry.command)[0] : detection.program;
  if (word === undefined || !PLAIN_WORD.test(word) || SHELL_WORDS.has(word)) {
    return { check: 'program', ok: null, detail: 'a shell command: its program is not looked up' };
  }
  // What the search depends on: PATH for a bare word, else the directory and HOME it is relative to.
  const key = word.includes('/') ? `${word}\0${entry.cwd}\0${entry.env.HOME ?? ''}` : `${word}\0${entry.env.PATH ?? ''}`;
  let found = seen.programs.get(key);
  if (found === undefined) {
    found = findProgram(word, entry);
    seen.programs.set(key, found);
  }
  return found === null
    ? { check: 'program', ok: false, detail: word.includes('/') ? `${word} is not an executable file` : `${word} is not on PATH` }
    : { check: 'program', ok: true, detail: found };
}

function findProgram(word: string, entry: EntryToCheck): string | null {
  const home = entry.env.HOME ?? '';
  const candidates = word.includes('/')
    ? [word === '~' || word.startsWith('~/') ? path.join(home, word.slice(1)) : path.resolve(entry.cwd, word)]
    : (entry.env.PATH ?? '').split(':').filter(Boolean).map((dir) => path.join(dir, word));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // the next one
    }
  }
  return null;
}

function checkOwnership(harness: HarnessName, home: string, id: string, entry: EntryToCheck, context: DoctorContext): Check {
  const inFleet = context.fleet.find((t) => t.conversationId === id && t.taskId !== entry.self?.taskId);
  if (inFleet) return { check: 'ownership', ok: false, detail: `open in ${holderText(inFleet)}`, source: 'this fleet\'s tasks' };
  const live = conversationLiveness(harness, home, id, context.liveness);
  if (live.state === 'free') return { check: 'ownership', ok: true, detail: 'not open elsewhere', source: live.source };
  if (live.state === 'unknown') return { check: 'ownership', ok: null, detail: `cannot tell whether it is open elsewhere: ${live.why}`, source: live.source };
  const task = fleetHolderOf(live.holder, context.fleet, context.tmuxSocket);
  if (task !== null && task.taskId === entry.self?.taskId) return { check: 'ownership', ok: true, detail: 'open in this task only', source: live.source };
  return { check: 'ownership', ok: false, detail: `open in ${task ? holderText(task) : holderText(live.holder)}`, source: live.source };
}

const TODO: Record<CheckName, string> = {
  directory: 'restore the directory, or remove the entry',
  program: 'install it or fix PATH',
  conversation: '',
  ownership: 'close it there first; load and recover skip it while it is open',
};

function summarize(checks: Check[], unresumable: boolean, context: DoctorContext): Pick<EntryReport, 'verdict' | 'why' | 'todo'> {
  const failed = checks.filter((c) => c.ok === false);
  if (failed.length > 0) {
    const todo = failed.map((c) => (c.check === 'conversation' && unresumable ? context.fixHint : TODO[c.check]));
    return { verdict: 'fail', why: failed.map((c) => c.detail).join('; '), todo: [...new Set(todo)].join('; ') };
  }
  const unsure = checks.filter((c) => c.ok === null && c.check === 'ownership');
  if (unsure.length > 0) return { verdict: 'unsure', why: unsure.map((c) => c.detail).join('; '), todo: 'make sure no other window has it open' };
  const ownership = checks.find((c) => c.check === 'ownership');
  return { verdict: 'ok', why: ownership ? `conversation found, ${ownership.detail}` : 'ready', todo: '-' };
}
