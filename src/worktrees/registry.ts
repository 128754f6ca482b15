// The worktrees fleetcom made, kept in one file: what tells a worktree fleetcom may share,
// list and prune from one someone else made (those are never touched). A file that cannot be
// read is refused with its path, never overwritten. Every change is a read-modify-write under
// `worktrees.json.lock` (ownership/file-lock.ts): ten `run --worktree` at once lose no entry.
import path from 'node:path';
import { FleetError } from '../errors.js';
import { withFileLock } from '../ownership/file-lock.js';
import { makePrivateDirs, readOwnFile, writeFileAtomicSync } from '../fs-safety.js';
import { worktreeRecord, worktreeRecordProblem, type WorktreeRecord } from '../worktree-record.js';
import { realPath } from './repo.js';

export interface MadeWorktree extends WorktreeRecord {
  /** false until its setup (include files, setup command) succeeded: a next run tries again. */
  ready: boolean;
}

const VERSION = 1;

export function readRegistry(file: string): MadeWorktree[] {
  const text = readOwnFile(file);
  if (text === null) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new FleetError(`${file}: invalid JSON (${(error as Error).message}); fix or move it away`);
  }
  const list = (doc as { version?: unknown; worktrees?: unknown } | null)?.worktrees;
  if ((doc as { version?: unknown } | null)?.version !== VERSION || !Array.isArray(list)) {
    throw new FleetError(`${file}: expected {"version": ${VERSION}, "worktrees": [...]}; fix or move it away`);
  }
  return list.map((entry, i) => {
    const problem = worktreeRecordProblem(entry);
    if (problem !== null) throw new FleetError(`${file}: worktrees[${i}].${problem.key}: ${problem.message}`);
    const e = entry as MadeWorktree;
    return { repo: e.repo, path: e.path, branch: e.branch, base: e.base, baseRef: e.baseRef ?? null, ready: e.ready !== false };
  });
}

function writeRegistry(file: string, entries: readonly MadeWorktree[]): void {
  writeFileAtomicSync(file, `${JSON.stringify({ version: VERSION, worktrees: entries }, null, 2)}\n`);
}

/** The list read, changed by `change` and written back, all under the lock. */
async function update(file: string, change: (entries: MadeWorktree[]) => MadeWorktree[] | null): Promise<void> {
  makePrivateDirs(path.dirname(file));
  await withFileLock(file, () => {
    const changed = change(readRegistry(file));
    if (changed !== null) writeRegistry(file, changed);
  });
}

/** Records (or replaces, by path) a worktree fleetcom made. */
export function remember(file: string, made: MadeWorktree): Promise<void> {
  return update(file, (entries) => [...entries.filter((e) => e.path !== made.path), made]);
}

/** Forgets the worktree at `worktreePath`. */
export function forget(file: string, worktreePath: string): Promise<void> {
  return update(file, (entries) => {
    const kept = entries.filter((e) => e.path !== worktreePath);
    return kept.length === entries.length ? null : kept;
  });
}

export function madeAt(file: string, worktreePath: string): MadeWorktree | null {
  return readRegistry(file).find((e) => e.path === worktreePath) ?? null;
}

/** The record of the worktree fleetcom made at `worktreePath` (symlinks resolved), or null — also when the list cannot be read. */
export function madeWorktreeAt(file: string, worktreePath: string): WorktreeRecord | null {
  try {
    const real = realPath(worktreePath);
    const made = readRegistry(file).find((e) => e.path === worktreePath || e.path === real);
    return made ? worktreeRecord(made) : null;
  } catch {
    return null;
  }
}
