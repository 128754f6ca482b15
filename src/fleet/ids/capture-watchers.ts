// One capture watcher per namespace the fleet's tasks write into: this supervisor's, and those
// of dead supervisors whose tasks it adopted. A watcher reports ids to the supervisor; an adopted
// namespace goes (watcher closed, directory removed) once no task writes into it any more. A
// watcher watches a directory, not a path: one removed and made again (runtime-guard.ts) is
// watched afresh.
import { lstatSync } from 'node:fs';
import { removeNamespace } from '../../capture/namespace.js';
import { watchCaptures, type CaptureWatcher } from '../../capture/watcher.js';
import type { Supervisor } from '../supervisor/supervisor.js';

export class CaptureWatchers {
  private readonly watchers = new Map<string, Promise<CaptureWatcher | null>>();
  /** The inode of each watched directory when its watch started. */
  private readonly inodes = new Map<string, number>();

  constructor(
    private readonly supervisor: Supervisor,
    /** The capture root: only namespaces directly in it are ever removed. */
    private readonly root: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts a watcher for every namespace that has none yet; resolves once each has scanned. */
  async follow(): Promise<void> {
    for (const dir of this.supervisor.captureNamespaces()) {
      const ino = this.watchers.has(dir) ? null : inodeOf(dir);
      if (ino === null) continue;
      this.inodes.set(dir, ino);
      this.watchers.set(dir, watchCaptures({
        dir,
        lookup: { current: (taskId) => this.supervisor.runEvidence(taskId) },
        onId: (e) => void this.supervisor.captured(e.taskId, e.run, e.id),
        onSignals: (taskId, run) => void this.supervisor.signals(taskId, run).catch((e: Error) => this.log(`attention: ${e.message}`)),
        onError: (error) => this.log(`capture watcher: ${(error as Error).message}`),
      }).catch((error: Error) => {
        // Not watched, retried on the next change: captures are still read on save and rerun.
        this.watchers.delete(dir);
        this.inodes.delete(dir);
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
      if (ino === this.inodes.get(dir)) continue;
      void this.watchers.get(dir)?.then((w) => w?.close());
      this.watchers.delete(dir);
      this.inodes.delete(dir);
      if (ino !== null) this.log(`capture namespace ${dir} is a new directory: watching it again`);
    }
    await this.follow();
  }

  /** A dead supervisor's namespace goes once no adopted task writes into it any more. */
  dropIdle(): void {
    for (const dir of this.supervisor.releaseIdleNamespaces()) {
      void this.watchers.get(dir)?.then((w) => w?.close());
      this.watchers.delete(dir);
      this.inodes.delete(dir);
      removeNamespace(dir, this.root);
      this.log(`removed the capture namespace ${dir} of an earlier supervisor`);
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.watchers.values()];
    this.watchers.clear();
    this.inodes.clear();
    await Promise.all(all.map(async (w) => (await w)?.close()));
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
