// The push half of capture (issue 3, item 4): watch one namespace directory and, whenever a
// capture file of a task's *current* run is written, ask the resume core for that run's id
// again; emit `{taskId, run, id}` when the answer changed. Save and rerun still resolve afresh
// (pull), so a missed or late event never yields a stale answer.
//
// Why chokidar's `raw` event too: chokidar drops a `change` that comes within 50 ms of the
// previous one for the same file (and raw fs events within 5 ms), with no trailing event, so
// the last of several quick writes — claude's `cat >` truncating then writing, a /clear soon
// after startup, two codex notifiers — would go unseen. Every event (add, change, raw) is only
// a hint to re-check the file; checks for one file are coalesced to one per event-loop turn,
// and one more check runs `settleMs` after the last hint as a backstop for coalesced events.
import { statSync } from 'node:fs';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { captureId, harnessFor, type RunEvidence } from '../harness/index.js';
import { capturePath, parseCaptureName, parseEventsName } from './capture-names.js';

export interface RunLookup {
  /** The task's current run and its evidence, or null for a task the fleet does not know. */
  current(taskId: number): { run: number; evidence: RunEvidence } | null;
}

export interface CaptureEvent {
  taskId: number;
  run: number;
  id: string;
}

/** Why a file was resolved: a file-system event, the settle backstop, or `recheck`. */
export type CheckReason = 'event' | 'settle' | 'recheck';

export interface WatchCapturesOptions {
  /** The namespace directory `<root>/<pid>-<nonce>`; it must exist. */
  dir: string;
  lookup: RunLookup;
  onId: (event: CaptureEvent) => void;
  /** Defaults to the resume core's `captureId` (schema, strict id and 8.2/8.3 file checks). */
  resolve?: (evidence: RunEvidence, now: number) => string | null;
  now?: () => number;
  /** Delay of the backstop re-check after the last event for a file, ms (default 100). */
  settleMs?: number;
  /**
   * A run's signal files changed (its `.events` file, or its capture file, which codex's
   * notifier appends to): attention reads them. Coalesced like the id checks.
   */
  onSignals?: (taskId: number, run: number) => void;
  /** Errors of the watcher, the lookup, the resolver or `onId`; never thrown. Default: ignored. */
  onError?: (error: unknown) => void;
  /** Observes every resolution of a current run's file (tests, FLEETCOM_DEBUG tracing). */
  onCheck?: (check: { taskId: number; run: number; id: string | null; reason: CheckReason }) => void;
}

export interface CaptureWatcher {
  /** Resolve the task's current run now (e.g. after a rerun) and emit if the answer changed. */
  recheck(taskId: number): void;
  close(): Promise<void>;
}

/**
 * Start watching `dir`. Resolves once the initial scan is done: a write after that is seen.
 * Capture files already present are checked during the scan (adopted tasks get their ids).
 */
export async function watchCaptures(opts: WatchCapturesOptions): Promise<CaptureWatcher> {
  const dir = resolvePath(opts.dir);
  const stat = statSync(dir);
  if (!stat.isDirectory()) throw new Error(`capture watcher: ${dir} is not a directory`);
  const resolveId = opts.resolve ?? captureId;
  const now = opts.now ?? Date.now;
  const settleMs = opts.settleMs ?? 100;
  const report = (error: unknown): void => {
    try {
      opts.onError?.(error);
    } catch {
      // an error reporter that throws has nowhere left to report to
    }
  };

  const lastEmitted = new Map<number, { run: number; id: string }>();
  const queued = new Set<string>();
  const settleTimers = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const check = (name: string, reason: CheckReason): void => {
    if (closed) return;
    const parsed = parseCaptureName(name);
    if (!parsed) return;
    let current: ReturnType<RunLookup['current']>;
    try {
      current = opts.lookup.current(parsed.taskId);
    } catch (error) {
      report(error);
      return;
    }
    if (!current || current.run !== parsed.run) return;
    const file = current.evidence.captureFile;
    if (file === null || resolvePath(file) !== join(dir, name)) return;
    let id: string | null;
    try {
      id = resolveId(current.evidence, now());
    } catch (error) {
      report(error);
      id = null;
    }
    if (id !== null && !harnessFor(current.evidence.harness).isId(id)) id = null;
    opts.onCheck?.({ taskId: parsed.taskId, run: parsed.run, id, reason });
    if (id === null) return;
    const last = lastEmitted.get(parsed.taskId);
    if (last && last.run === parsed.run && last.id === id) return;
    lastEmitted.set(parsed.taskId, { run: parsed.run, id });
    try {
      opts.onId({ taskId: parsed.taskId, run: parsed.run, id });
    } catch (error) {
      report(error);
    }
  };

  const signals = (name: string): void => {
    const run = parseCaptureName(name) ?? parseEventsName(name);
    if (closed || !run || !opts.onSignals) return;
    try {
      opts.onSignals(run.taskId, run.run);
    } catch (error) {
      report(error);
    }
  };
  // A run's events file changing re-checks its capture file too: claude's id counts only once
  // its transcript holds a message, which comes after the capture (a /clear writes the new id
  // before anything is typed), and the prompt and stop hooks that follow write events only.
  const checkAndSignal = (name: string, reason: CheckReason): void => {
    const events = parseEventsName(name);
    if (parseCaptureName(name)) check(name, reason);
    else if (events) check(basename(capturePath(dir, events.taskId, events.run)), reason);
    signals(name);
  };

  const hint = (path: unknown): void => {
    if (closed || typeof path !== 'string') return;
    const name = basename(path);
    if (!parseCaptureName(name) && !parseEventsName(name)) return;
    if (!queued.has(name)) {
      queued.add(name);
      setImmediate(() => {
        queued.delete(name);
        checkAndSignal(name, 'event');
      });
    }
    clearTimeout(settleTimers.get(name));
    const timer = setTimeout(() => {
      settleTimers.delete(name);
      checkAndSignal(name, 'settle');
    }, settleMs);
    timer.unref();
    settleTimers.set(name, timer);
  };

  // Loaded with the first watch: a fleet of plain commands never watches, and its start
  // should not pay chokidar's ~8 ms.
  const { watch } = await import('chokidar');
  const watcher = watch(dir, {
    depth: 0,
    ignoreInitial: false,
    persistent: true,
    followSymlinks: false,
    // Temp files (the notifier's restart) and anything foreign are not watched individually;
    // the directory's raw events still name them, and `hint` drops them by name.
    ignored: (path: string) => resolvePath(path) !== dir && !parseCaptureName(basename(path)) && !parseEventsName(basename(path)),
  });
  watcher.on('error', report);
  watcher.on('add', hint);
  watcher.on('change', hint);
  watcher.on('raw', (_event: string, path: unknown, details: unknown) => {
    // Raw paths are relative to the watched path: the directory, or a watched capture file.
    const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (typeof watched === 'string' && resolvePath(watched) !== dir && dirname(resolvePath(watched)) !== dir) return;
    hint(path);
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    recheck(taskId: number): void {
      let current: ReturnType<RunLookup['current']>;
      try {
        current = opts.lookup.current(taskId);
      } catch (error) {
        report(error);
        return;
      }
      const file = current?.evidence.captureFile;
      if (!file || dirname(resolvePath(file)) !== dir) return;
      check(basename(file), 'recheck');
    },
    async close(): Promise<void> {
      closed = true;
      for (const timer of settleTimers.values()) clearTimeout(timer);
      settleTimers.clear();
      await watcher.close();
    },
  };
}
