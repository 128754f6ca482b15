// Every fleet of this config dir, running or left behind: `up` notes its runtime dir in
// `<config dir>/fleets.json` (under a lock), and a command that must know every task of the
// user's fleets — `worktrees --prune`, before it removes a worktree — reads the state.json of
// each of them (and of the default runtime dirs, for fleets started before the index). A
// state.json a supervisor left behind counts too: its tasks' windows may still run and be
// adopted by the next `up`. What cannot be read is named, so the caller can fail closed.
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lockedSupervisor } from '../../control/lock-record.js';
import { describeFsError, FleetError, isNotFound } from '../../errors.js';
import { makePrivateDirs, readOwnFile, writeFileAtomicSync } from '../../fs-safety.js';
import { withFileLock } from '../../ownership/file-lock.js';
import { runtimeDir, runtimeFiles, type Env } from '../../paths.js';
import { realPath } from '../../worktrees/repo.js';
import { parseState } from '../adoption/state-file.js';

/** A task of some fleet, as much as deciding who uses a directory needs. */
export interface FleetTask {
  id: number;
  cwd: string;
  /** The path of the worktree fleetcom made for it, or null. */
  worktree: string | null;
}

export interface KnownFleet {
  runtimeDir: string;
  /** Its supervisor's pid while it runs; null: left behind (its tasks may be adopted later). */
  pid: number | null;
  tasks: FleetTask[];
}

export interface FleetsRead {
  fleets: KnownFleet[];
  /** A fleet whose tasks could not be read, and why. */
  unreadable: Array<{ runtimeDir: string; why: string }>;
}

const VERSION = 1;

function readIndex(file: string): string[] {
  const text = readOwnFile(file);
  if (text === null) return [];
  try {
    const doc = JSON.parse(text) as { version?: unknown; runtimeDirs?: unknown };
    if (doc.version !== VERSION || !Array.isArray(doc.runtimeDirs) || !doc.runtimeDirs.every((d) => typeof d === 'string' && path.isAbsolute(d))) throw new Error('bad shape');
    return doc.runtimeDirs as string[];
  } catch {
    throw new FleetError(`${file}: expected {"version": ${VERSION}, "runtimeDirs": ["/abs/dir", …]}; fix or move it away`);
  }
}

/** Notes `dir` as a fleet's runtime dir; drops the noted dirs that hold neither a lock nor a state.json any more. */
export async function noteFleet(file: string, runtime: string): Promise<void> {
  const dir = path.resolve(runtime); // FLEETCOM_RUNTIME_DIR may be relative
  makePrivateDirs(path.dirname(file));
  await withFileLock(file, () => {
    const kept = readIndex(file).filter((d) => d !== dir && (existsSync(runtimeFiles(d).lock) || existsSync(runtimeFiles(d).state)));
    writeFileAtomicSync(file, `${JSON.stringify({ version: VERSION, runtimeDirs: [...kept, dir] }, null, 2)}\n`);
  });
}

/** The noted runtime dirs and the default ones (`$XDG_RUNTIME_DIR/fleetcom`, `$TMPDIR/fleetcom-<uid>`), each once. */
export function knownRuntimeDirs(file: string, env: Env): string[] {
  const defaults = [runtimeDir(env), ...(env.XDG_RUNTIME_DIR ? [runtimeDir({ XDG_RUNTIME_DIR: env.XDG_RUNTIME_DIR })] : []), runtimeDir({ TMPDIR: env.TMPDIR }), runtimeDir({}, undefined, tmpdir())];
  return [...new Set([...readIndex(file), ...defaults].map((d) => path.resolve(d)))];
}

/** One runtime dir's fleet: null when none is there (no state.json, no supervisor), else its tasks or why they cannot be read. */
export function readFleet(dir: string): KnownFleet | { why: string } | null {
  const files = runtimeFiles(dir);
  const supervisor = lockedSupervisor(files.lock);
  let text: string;
  try {
    text = readFileSync(files.state, 'utf8');
  } catch (error) {
    if (!isNotFound(error)) return { why: `${files.state} cannot be read: ${describeFsError(error)}` };
    return supervisor === null ? null : { why: `its supervisor (pid ${supervisor.pid}) runs but ${files.state} is not there (starting?)` };
  }
  const state = parseState(text);
  if (typeof state === 'string') return { why: `${files.state}: ${state}` };
  return {
    runtimeDir: dir,
    pid: supervisor?.pid ?? null,
    tasks: state.tasks.map((t) => ({ id: t.id, cwd: t.cwd, worktree: t.worktree?.path ?? null })),
  };
}

/** The fleets of `dirs` (except `skip`, the caller's own when it asked that one itself). */
export function readFleets(dirs: readonly string[], skip: string | null): FleetsRead {
  const out: FleetsRead = { fleets: [], unreadable: [] };
  for (const dir of dirs) {
    if (skip !== null && path.resolve(dir) === path.resolve(skip)) continue;
    const read = readFleet(dir);
    if (read === null) continue;
    if ('why' in read) out.unreadable.push({ runtimeDir: dir, why: read.why });
    else out.fleets.push(read);
  }
  return out;
}

/** `dir` is `worktree` or inside it (symlinks resolved). */
export function within(dir: string, worktree: string): boolean {
  const d = realPath(dir);
  const w = realPath(worktree);
  return d === w || d.startsWith(`${w}/`);
}

/** A task uses a worktree when it was made for it or runs anywhere inside it. */
export function usesWorktree(task: FleetTask, worktree: string): boolean {
  return (task.worktree !== null && within(task.worktree, worktree)) || within(task.cwd, worktree);
}

/** The tasks of these fleets that use `worktree`. */
export function tasksIn(fleets: readonly KnownFleet[], worktree: string): Array<{ runtimeDir: string; id: number; running: boolean }> {
  return fleets.flatMap((f) => f.tasks.filter((t) => usesWorktree(t, worktree)).map((t) => ({ runtimeDir: f.runtimeDir, id: t.id, running: f.pid !== null })));
}

/**
 * Who else uses `worktree`, in words: the tasks of the user's other fleets (all but `ownDir`'s)
 * in it, and each fleet whose tasks cannot be read (it may have one there).
 */
export function otherFleetsIn(file: string, env: Env, ownDir: string, worktree: string): string[] {
  let dirs: string[];
  try {
    dirs = knownRuntimeDirs(file, env);
  } catch (error) {
    return [`maybe another fleet: ${(error as Error).message}`];
  }
  const read = readFleets(dirs, ownDir);
  return [
    ...tasksIn(read.fleets, worktree).map((t) => `task ${t.id} of the fleet at ${t.runtimeDir}`),
    ...read.unreadable.map((u) => `maybe the fleet at ${u.runtimeDir}, whose tasks cannot be read (${u.why})`),
  ];
}
