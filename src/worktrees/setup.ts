// After a worktree is made: the files it lacks (.worktreeinclude), its submodules, and one
// setup command — the user's own (config worktreeSetup, always run) or else the repository's
// `.fleetcom/worktree-setup`, run only when trusted. A setup that fails or outlives its
// deadline stops the task from starting, with the command's last lines.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FleetError } from '../errors.js';
import type { WorktreeRecord } from '../worktree-record.js';
import { git } from './git.js';
import { copyIncluded, INCLUDE_FILE } from './include.js';
import { isTrusted, scriptHash, SETUP_SCRIPT } from './trust.js';

export interface SetupOptions {
  /** config worktreeSetup: a /bin/sh command line, or null. */
  command: string | null;
  deadlineMs: number;
  trustFile: string;
  env: Record<string, string>;
  say: (line: string) => void;
}

const LAST_LINES = 12;

/** Whether a new worktree of this repository has anything to set up (most have not: one file write fewer). */
export function setupSteps(record: WorktreeRecord, opts: Pick<SetupOptions, 'command'>): boolean {
  return opts.command !== null || [INCLUDE_FILE, '.gitmodules', SETUP_SCRIPT].some((name) => existsSync(path.join(name === INCLUDE_FILE ? record.repo : record.path, name)));
}

export async function prepareCheckout(record: WorktreeRecord, opts: SetupOptions): Promise<void> {
  const copied = await copyIncluded(record.repo, record.path);
  if (copied > 0) opts.say(`copied ${copied} file(s) named by .worktreeinclude into ${record.path}`);
  if (existsSync(path.join(record.path, '.gitmodules'))) {
    await git(['-C', record.path, 'submodule', 'update', '--init', '--recursive'], { deadlineMs: opts.deadlineMs });
  }
  const env = {
    ...opts.env, FLEETCOM_REPO_ROOT: record.repo, FLEETCOM_WORKTREE_PATH: record.path, FLEETCOM_BRANCH: record.branch, FLEETCOM_BASE: record.base,
  };
  if (opts.command !== null) {
    await runSetup(['/bin/sh', '-c', opts.command], 'worktreeSetup', record.path, env, opts.deadlineMs);
    return;
  }
  const hash = scriptHash(record.path);
  if (hash === null) return;
  if (!isTrusted(opts.trustFile, record.repo, hash)) {
    throw new FleetError(
      `${path.join(record.path, SETUP_SCRIPT)} is not trusted (new or changed since trusted): read it, then run ` +
        `fleetcom trust ${record.path} and the same run again (the worktree stays at ${record.path})`,
    );
  }
  await runSetup(['/bin/sh', path.join(record.path, SETUP_SCRIPT)], SETUP_SCRIPT, record.path, env, opts.deadlineMs);
}

function runSetup(argv: string[], what: string, cwd: string, env: Record<string, string>, deadlineMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = argv as [string, ...string[]];
    let output = '';
    // Its own process group: at the deadline the whole setup (a package install) is stopped.
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-16_384);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, deadlineMs);
    const last = () => output.split('\n').filter((l) => l.trim() !== '').slice(-LAST_LINES).map((l) => `  | ${l}`).join('\n');
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new FleetError(`${what} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && !timedOut) return resolve();
      const why = timedOut ? `did not finish within ${Math.round(deadlineMs / 1000)} s and was stopped` : `failed (${code === null ? `signal ${signal}` : `exit ${code}`})`;
      const tail = last();
      reject(new FleetError(`${what} ${why} in ${cwd}; the task was not started${tail === '' ? '' : `:\n${tail}`}`));
    });
  });
}
