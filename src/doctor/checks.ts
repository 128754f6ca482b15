// `fleetcom doctor`: what would happen to each entry of a recipe (or task of the fleet) if it
// were started now — without starting anything. Reads the file system and /proc only.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { conversationOf, detect, harnessFor, resolveHome, resumeCommand, splitWords, storedConversation, type Detection, type HarnessName } from '../harness/index.js';
import { conversationLiveness, fleetHolderOf, holderText, type FleetHolder, type LivenessOptions } from '../ownership/index.js';

export type CheckName = 'directory' | 'program' | 'conversation' | 'ownership' | 'settings' | 'worktree';

/** One check: passed (true), failed (false) or could not tell (null). */
export interface Check {
  check: CheckName;
  ok: boolean | null;
  detail: string;
  /** What was read to decide (the ownership check names its source). */
  source?: string;
  /** Passed, but said in WHY all the same (a worktree that a load makes again). */
  note?: true;
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
  /** What --fix writes for this entry: the bare agent (unresumable), the root's resume (a child's id); else null. */
  fix: string | null;
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
  /**
   * A worktree entry's worktree as git has it now (worktrees/recreate.ts, asked by the caller):
   * it stands in for the directory check, as a load makes a gone worktree again.
   */
  worktree?: { state: 'present' | 'missing' | 'refused'; branch: string; why?: string };
}

export interface DoctorContext {
  /** Running tasks of the fleet, with the conversation each holds. */
  fleet: readonly FleetHolder[];
  /** The fleet's tmux server socket when known: a pane id means a fleet task only there. */
  tmuxSocket: string | null;
  /** The fix the user can run for an unresumable entry. */
  fixHint: string;
  /** `fleetcom doctor --fix <session>` (or what to do instead, for --fleet). */
  fixCommand: string;
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
  const checks: Check[] = [entry.worktree ? checkWorktree(entry, entry.worktree) : checkDirectory(entry, seen), checkProgram(entry, seen)];
  const detection = detect(entry.command);
  if (detection.form !== 'opaque') {
    // The agent's own settings can lose what a recipe resumes (gemini's session cleanup) or hide its signals.
    const home = homeOrNull(detection.harness, entry.env);
    for (const warning of home === null ? [] : harnessFor(detection.harness).warnings(home, entry.env)) {
      checks.push({ check: 'settings', ok: null, detail: warning });
    }
  }
  if (detection.form !== 'resume') {
    return { dir: entry.dir, command: entry.command, name: entry.name, ...summarize(checks, false, context), unresumable: false, fix: null, checks };
  }
  const home = resolveHome(detection.harness, entry.env);
  const conversation = checkConversation(detection, home, entry.cwd);
  checks.push(conversation.check);
  if (conversation.resumes !== null) checks.push(checkOwnership(detection.harness, home, conversation.resumes, entry, context));
  const unresumable = conversation.resumes === null;
  const summary = summarize(checks, unresumable, context);
  if (conversation.child !== null && summary.verdict !== 'fail') {
    // It starts (resuming the root); --fix writes that down, so the recipe says what runs.
    summary.why = `${conversation.child}, ${summary.why}`;
    summary.todo = `${context.fixCommand} rewrites it to ${conversation.fix}`;
  }
  return { dir: entry.dir, command: entry.command, name: entry.name, ...summary, unresumable, fix: conversation.fix, checks };
}

/**
 * Whether the entry's conversation can be resumed, and which one that is: the id it names, or
 * the user conversation at the root of a child's (a codex subagent thread), as load runs it.
 */
function checkConversation(detection: Extract<Detection, { form: 'resume' }>, home: string, cwd: string) {
  const of = conversationOf(detection.harness, detection.targetId, { home, cwd });
  if (of.kind === 'none') {
    return { check: { check: 'conversation', ok: false, detail: `${of.note}: not resumable` } satisfies Check, resumes: null, child: null, fix: detection.program };
  }
  const stored = storedConversation(detection.harness, home, cwd, of.id);
  const child = of.kind === 'parent' ? `${of.note}; resumes ${of.id}` : null;
  const detail = `${child ? `${child}: ` : ''}${stored.found ? `found: ${stored.path}` : stored.why}`;
  const check: Check = { check: 'conversation', ok: stored.found, detail };
  if (!stored.found) return { check, resumes: null, child: null, fix: detection.program };
  return { check, resumes: of.id, child, fix: child ? resumeCommand(detection, of.id) : null };
}

function homeOrNull(harness: HarnessName, env: Record<string, string>): string | null {
  try {
    return resolveHome(harness, env);
  } catch {
    return null;
  }
}

function checkWorktree(entry: EntryToCheck, worktree: NonNullable<EntryToCheck['worktree']>): Check {
  if (worktree.state === 'present') return { check: 'worktree', ok: true, detail: `the worktree of ${worktree.branch} at ${entry.cwd}` };
  if (worktree.state === 'missing') return { check: 'worktree', ok: true, note: true, detail: `the worktree of ${worktree.branch} is gone: load makes it again at ${entry.cwd}` };
  return { check: 'worktree', ok: false, detail: `worktree not restorable: ${worktree.why ?? 'unknown'}` };
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

/** Where `word` would run from for this environment (PATH, `~/…`, or relative to `cwd`), or null. */
export function findProgram(word: string, entry: Pick<EntryToCheck, 'env' | 'cwd'>): string | null {
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
  settings: '',
  worktree: 'restore the repository or branch, or clear the path, or remove the entry',
};

/** The verdict, with the agent's settings warnings added to whatever it says. */
function summarize(checks: Check[], unresumable: boolean, context: DoctorContext): Pick<EntryReport, 'verdict' | 'why' | 'todo'> {
  const verdict = judge(checks, unresumable, context);
  const notes = checks.filter((c) => c.note && c.ok === true);
  if (notes.length > 0 && verdict.verdict !== 'fail') verdict.why = [verdict.why, ...notes.map((c) => c.detail)].join('; ');
  const warnings = checks.filter((c) => c.check === 'settings');
  if (warnings.length === 0) return verdict;
  const todo = 'change the setting the warning names';
  return {
    verdict: verdict.verdict,
    why: [verdict.why, ...warnings.map((c) => `warning: ${c.detail}`)].join('; '),
    todo: verdict.todo === '-' ? todo : `${verdict.todo}; ${todo}`,
  };
}

function judge(checks: Check[], unresumable: boolean, context: DoctorContext): Pick<EntryReport, 'verdict' | 'why' | 'todo'> {
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
