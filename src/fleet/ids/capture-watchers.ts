// One capture watcher per namespace the fleet's tasks write into: this supervisor's, and those
// of dead supervisors whose tasks it adopted. A watcher reports ids to the supervisor; an adopted
// namespace goes (watcher closed, directory removed) once no task writes into it any more. A
// watcher watches a directory, not a path: one removed and made again (runtime-guard.ts, or an
// agent's hook) is watched afresh. Each watched directory is held open, so a removed one keeps
// its inode number until it is let go: a directory made again at that path can never pass for
// the one watched (ext4 hands a freed inode number to the next directory made beside it).
import { closeSync, constants, fstatSync, lstatSync, openSync } from 'node:fs';
import { removeNamespace } from '../../capture/namespace.js';
import { watchCaptures, type CaptureWatcher } from '../../capture/watcher.js';
import type { Supervisor } from '../supervisor/supervisor.js';

export class CaptureWatchers {
  private readonly watchers = new Map<string, Promise<CaptureWatcher | null>>();
  /** The inode of each watched directory when its watch started. */
  private readonly inodes = new Map<string, number>();
  /** Each watched directory, held open (see above). */
  private readonly handles = new Map<string, WatchedDir>();

  constructor(
    private readonly supervisor: Supervisor,
    /** The capture root: only namespaces directly in it are ever removed. */
    private readonly root: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts a watcher for every namespace that has none yet; resolves once each has scanned. */
  async follow(): Promise<void> {
    for (const dir of this.supervisor.captureNamespaces()) {
      const held = this.watchers.has(dir) ? null : holdDir(dir);
      if (held === null) continue;
      this.inodes.set(dir, held.ino);
      this.handles.set(dir, held);
      this.watchers.set(dir, watchCaptures({
        dir,
        lookup: { current: (taskId) => this.supervisor.runEvidence(taskId) },
        onId: (e) => void this.supervisor.captured(e.taskId, e.run, e.id),
        onSignals: (taskId, run) => void this.supervisor.signals(taskId, run).catch((e: Error) => this.log(`attention: ${e.message}`)),
        onError: (error) => this.log(`capture watcher: ${(error as Error).message}`),
      }).catch((error: Error) => {
        // Not watched, retried on the next change: captures are still read on save and rerun.
        this.forget(dir);
        this.log(`capture watcher of ${dir} not started: ${error.message}`);
        return null;
      }));
    }
    await Promise.all(this.watchers.values());
  }

  /**
   * Watches again each namespace whose directory is not the one watched (removed, or removed
   * and made again); resolves once the new watches have scanned, which also reads what was
   * written meanwhile.
   */
  async refresh(): Promise<void> {
    for (const dir of [...this.watchers.keys()]) {
      const ino = inodeOf(dir);
      if (ino === this.inodes.get(dir) && !removedSince(this.handles.get(dir))) continue;
      void this.watchers.get(dir)?.then((w) => w?.close());
      this.forget(dir);
      if (ino !== null) this.log(`capture namespace ${dir} is a new directory: watching it again`);
    }
    await this.follow();
  }

  /** A dead supervisor's namespace goes once no adopted task writes into it any more. */
  dropIdle(): void {
    for (const dir of this.supervisor.releaseIdleNamespaces()) {
      void this.watchers.get(dir)?.then((w) => w?.close());
      this.forget(dir);
      removeNamespace(dir, this.root);
      this.log(`removed the capture namespace ${dir} of an earlier supervisor`);
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.watchers.values()];
    for (const dir of [...this.watchers.keys()]) this.forget(dir);
    await Promise.all(all.map(async (w) => (await w)?.close()));
  }

  private forget(dir: string): void {
    this.watchers.delete(dir);
    this.inodes.delete(dir);
    const held = this.handles.get(dir);
    this.handles.delete(dir);
    if (held) closeQuietly(held.fd);
  }
}

interface WatchedDir {
  fd: number;
  ino: number;
}

/** Opens `dir` (a real directory, never through a symlink) to hold it while it is watched; null when it cannot be. */
export function holdDir(dir: string): WatchedDir | null {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    return { fd, ino: fstatSync(fd).ino };
  } catch {
    closeQuietly(fd);
    return null;
  }
}

/** The held directory was removed (its link count is 0), whatever is at its path now. */
export function removedSince(held: WatchedDir | undefined): boolean {
  if (held === undefined) return false;
  try {
    return fstatSync(held.fd).nlink === 0;
  } catch {
    return true;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/** The directory's inode, or null when it is missing (or not a directory: not watched). */
function inodeOf(dir: string): number | null {
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() ? stat.ino : null;
  } catch {
    return null;
  }
}
