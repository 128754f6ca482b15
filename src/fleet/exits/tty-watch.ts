// A pane's terminal, watched for its end without polling. When a pane's process exits and tmux
// reads the end of its output, tmux closes the pty and the kernel removes its `/dev/pts/N`:
// an inotify watch on that node then reports it ('rename'), also when tmux missed the process's
// SIGCHLD (measured on tmux 3.3a: the event comes with the pane dead, its status still unknown).
// A watch costs nothing while the pane is quiet; each write to the terminal is an event
// ('change'), so the caller watches only quiet panes.
import { watch, type FSWatcher } from 'node:fs';

/** What a pane's tty path must look like to be watched (tmux's answer is not trusted blindly). */
const PTS = /^\/dev\/pts\/\d+$/;

export interface TtyWatchEvents {
  /** The terminal was written to (or its mode changed): the pane is busy. */
  written(): void;
  /** The terminal is gone: tmux closed the pane's pty (or it was never there). */
  closed(): void;
}

/**
 * Watches `tty`; null when it cannot be watched (not a pts path, no inotify watch left, any
 * other error): the caller polls instead. A tty already gone calls `closed` soon after.
 */
export function watchTty(tty: string, events: TtyWatchEvents): { close(): void } | null {
  if (!PTS.test(tty)) return null;
  let watcher: FSWatcher;
  try {
    watcher = watch(tty, { persistent: false }, (event) => (event === 'change' ? events.written() : events.closed()));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null;
    const gone = setImmediate(() => events.closed());
    return { close: () => clearImmediate(gone) };
  }
  // An error after the start (the watch was removed under it): polling takes over.
  watcher.on('error', () => events.written());
  return { close: () => watcher.close() };
}
