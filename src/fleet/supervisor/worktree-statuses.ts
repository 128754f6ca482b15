// The worktree tasks' state (ahead, behind, lines, dirty) as last read, for `ls` and the
// dashboard: read in the background every few seconds, one worktree at a time, never on a
// request or a redraw (a git process per task per redraw would cost more than the redraw).
import { worktreeStatus, type WorktreeStatus } from '../../worktrees/status.js';
import type { WorktreeRecord } from '../../worktree-record.js';

export const WORKTREE_REFRESH_MS = 5_000;

export class WorktreeStatuses {
  private readonly statuses = new Map<string, WorktreeStatus | null>();
  private refreshing: Promise<boolean> | null = null;

  constructor(private readonly read: (record: WorktreeRecord) => Promise<WorktreeStatus> = worktreeStatus) {}

  get(path: string): WorktreeStatus | null {
    return this.statuses.get(path) ?? null;
  }

  /** Reads each distinct worktree once; true when a status changed. One refresh at a time. */
  refresh(records: readonly WorktreeRecord[]): Promise<boolean> {
    this.refreshing ??= this.readAll(records).finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async readAll(records: readonly WorktreeRecord[]): Promise<boolean> {
    const byPath = new Map(records.map((r) => [r.path, r]));
    let changed = false;
    for (const path of [...this.statuses.keys()]) {
      if (byPath.has(path)) continue;
      this.statuses.delete(path);
      changed = true;
    }
    for (const [path, record] of byPath) {
      // A worktree git cannot read now (removed by hand, a git that hangs) shows no status.
      const status = await this.read(record).catch(() => null);
      if (JSON.stringify(status) !== JSON.stringify(this.statuses.get(path) ?? null)) changed = true;
      this.statuses.set(path, status);
    }
    return changed;
  }
}
