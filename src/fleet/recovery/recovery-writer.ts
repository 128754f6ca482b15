// Recovery snapshots, driven by the supervisor: one file
// per supervisor incarnation, rewritten ~2 s after a fleet change and every 60 s when its
// content changed (ids captured or written to stores later), never while the fleet is empty;
// `close` writes the last one (marked closed by `down`). Timers and the file writes come in
// through deps, so the scheduling is tested with a fake clock.
import { basename } from 'node:path';
import type { RecipeTask } from '../../control/protocol.js';
import { sessionDir, userHome } from '../../paths.js';
import { listSessions, pruneRecovery, recoverySnapshot, writeRecipeAtomic } from '../../sessions/index.js';
import { fleetRecipe } from '../ids/fleet-recipe.js';
import { processExists } from '../lifecycle/process-identity.js';
import { abandonedSnapshots } from './recovery-choice.js';

export const RECOVERY_DEBOUNCE_MS = 2_000;
export const RECOVERY_INTERVAL_MS = 60_000;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  setInterval: (fn, ms) => setInterval(fn, ms).unref(),
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};

export interface RecoveryWriterDeps {
  /** The fleet now, agents as their resume commands (Supervisor.recipe). */
  tasks: () => RecipeTask[];
  sessionDir: string;
  /** The supervisor's start time and pid: they name the file. */
  startedAt: Date;
  pid: number;
  /** The HOME that directories are abbreviated against (`~/…`). */
  home: string;
  log: (line: string) => void;
  timers?: Timers;
  write?: (file: string, text: string) => Promise<void>;
  prune?: (sessionDir: string) => Promise<unknown>;
}

export class RecoveryWriter {
  private readonly timers: Timers;
  private readonly write: (file: string, text: string) => Promise<void>;
  private readonly prune: (sessionDir: string) => Promise<unknown>;
  private pending: unknown = null;
  private interval: unknown = null;
  private lastText: string | null = null;
  private lastTasks: RecipeTask[] | null = null;
  private closed = false;
  /** Closed by `down` (not by a supervisor leaving its tasks to a later `up`). */
  private closedByDown = false;
  /** Writes run one after another, so an older text never lands after a newer one. */
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RecoveryWriterDeps) {
    this.timers = deps.timers ?? realTimers;
    this.write = deps.write ?? ((file, text) => writeRecipeAtomic(file, text));
    this.prune = deps.prune ?? ((dir) => pruneRecovery(dir));
  }

  /** Starts the 60 s check for content that changed without a fleet event. */
  start(): void {
    if (this.interval === null && !this.closed) {
      this.interval = this.timers.setInterval(() => void this.flush(), RECOVERY_INTERVAL_MS);
    }
  }

  /** A fleet change: write ~2 s from the first unsaved change (later ones ride along). */
  changed(): void {
    if (this.closed || this.pending !== null) return;
    this.pending = this.timers.setTimeout(() => {
      this.pending = null;
      void this.flush();
    }, RECOVERY_DEBOUNCE_MS);
  }

  /** Writes now if the content differs from the last write; resolves when written. */
  flush(): Promise<void> {
    if (this.closed) return this.chain;
    return this.enqueue(false);
  }

  /**
   * The last write of this incarnation: `down` passes closed = true. Stops the timers; later
   * changes are ignored. An empty fleet marks its last snapshot closed, or writes nothing
   * when it never had one.
   */
  async close(closed: boolean): Promise<void> {
    if (this.closed) return this.chain;
    this.closed = true;
    this.closedByDown = closed;
    if (this.pending !== null) this.timers.clearTimeout(this.pending);
    if (this.interval !== null) this.timers.clearInterval(this.interval);
    this.pending = null;
    this.interval = null;
    return this.enqueue(closed);
  }

  /**
   * A task is about to start. After a `down` that stopped every task but could not finish its
   * teardown, the fleet goes on serving: a new task makes it a live fleet again, so snapshots
   * resume (the next one is not marked closed). Otherwise nothing changes.
   */
  taskStarting(): void {
    if (!this.closed || !this.closedByDown) return;
    this.closed = false;
    this.closedByDown = false;
    this.start();
    this.changed();
  }

  /**
   * `up` started an empty fleet: name every snapshot of a fleet that did not shut down (not
   * closed by `down`, its supervisor not running), newest first. Never fails the start.
   */
  async pointAtAbandoned(isAlive: (pid: number) => boolean = processExists): Promise<void> {
    try {
      const { recovery } = await listSessions(this.deps.sessionDir);
      const found = abandonedSnapshots(recovery, this.deps.pid, isAlive);
      if (found.length === 0) return;
      this.deps.log(`${found.length} recovery snapshot(s) of fleets that did not shut down, newest first:`);
      for (const entry of found) {
        const what = entry.error === null ? `${entry.tasks} task(s)` : `unreadable: ${entry.error}`;
        this.deps.log(`  '${entry.label}' ${snapshotName(entry.file)}: ${what}`);
      }
      this.deps.log(`bring the newest back with: fleetcom recover (another: fleetcom recover ${snapshotName(found[found.length - 1]!.file)})`);
    } catch (error) {
      this.deps.log(`could not look for recovery snapshots: ${(error as Error).message}`);
    }
  }

  private enqueue(closed: boolean): Promise<void> {
    this.chain = this.chain.then(() => this.writeNow(closed));
    return this.chain;
  }

  private async writeNow(closed: boolean): Promise<void> {
    try {
      let tasks = this.deps.tasks();
      // An empty fleet keeps the last snapshot (a closing one only marks it closed).
      if (tasks.length === 0) {
        if (!closed || this.lastTasks === null) return;
        tasks = this.lastTasks;
      }
      const recipe = fleetRecipe('', tasks);
      if (closed) recipe.closed = true;
      const { file, text } = recoverySnapshot(this.deps.sessionDir, this.deps.startedAt, this.deps.pid, recipe, this.deps.home);
      if (text === this.lastText) return;
      const first = this.lastText === null;
      await this.write(file, text);
      this.lastText = text;
      this.lastTasks = tasks;
      if (first) await this.prune(this.deps.sessionDir);
    } catch (error) {
      this.deps.log(`recovery snapshot not written: ${(error as Error).message}`);
    }
  }
}

/** The writer of the supervisor started at `startedAt`, with the session dir and HOME of its env. */
export function fleetRecovery(input: {
  env: Readonly<Record<string, string | undefined>>;
  startedAt: Date;
  pid: number;
  tasks: () => RecipeTask[];
  log: (line: string) => void;
}): RecoveryWriter {
  return new RecoveryWriter({ ...input, home: userHome(input.env), sessionDir: sessionDir(input.env) });
}

/** The name `fleetcom recover` takes for a snapshot file. */
function snapshotName(file: string): string {
  return basename(file, '.json');
}
