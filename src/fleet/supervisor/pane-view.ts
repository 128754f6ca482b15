// A task's pane for a viewer (the browser view), over the control socket: `watch` streams its
// screen, then its output, as events (control/stream.ts), with the socket's backpressure
// pausing the pane (tmux/control/pane-streams.ts); `input` types bytes into it. Only a task's
// own pane can be watched or typed into, never any other pane of the server.
import type { ReplyOf, WatchEvent } from '../../control/protocol.js';
import { Streamed } from '../../control/stream.js';
import { FleetError } from '../../errors.js';
import type { PaneIo } from '../tmux/tmux-link.js';
import type { Task } from './task.js';

/** The pane a viewer may reach of this task; throws when it has none. */
export function viewedPane(task: Task | undefined, ref: string): string {
  if (task === undefined) throw new FleetError(`no task ${ref} in this fleet (see fleetcom ls)`);
  if (task.paneId === '') throw new FleetError(`task ${task.id} has no window (it was closed outside fleetcom)`);
  return task.paneId;
}

/** The stream of a `watch`: ends with the reason when the pane goes, or when the viewer leaves. */
export function watchStream(panes: PaneIo, paneId: string): Streamed<ReplyOf<'watch'>> {
  const why = panes.unavailable();
  if (why !== null) throw new FleetError(why);
  return new Streamed((out) => new Promise((resolve) => {
    let ended = false;
    const finish = (reason: string) => {
      if (ended) return;
      ended = true;
      watch.stop();
      resolve({ reason });
    };
    const watch = panes.watch(paneId, (event) => {
      if (event.kind === 'end') {
        finish(event.reason);
        return false;
      }
      const wire: WatchEvent = event.kind === 'screen'
        ? { kind: 'screen', width: event.width, height: event.height, data: event.data.toString('base64') }
        : { kind: 'output', data: event.data.toString('base64') };
      if (out.send(wire)) return true;
      // The socket's buffer is full: nothing more until it has drained, then a fresh screen.
      void out.drained().then(() => watch.resume());
      return false;
    });
    if (out.signal.aborted) finish('the viewer left');
    out.signal.addEventListener('abort', () => finish('the viewer left'), { once: true });
  }));
}
