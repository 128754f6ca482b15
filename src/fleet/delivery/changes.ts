// A wait for the next event of one task (or the end of the feed), bounded: how a send waits
// for its task to need input or for the agent's signal, without asking tmux in a loop. An event
// that comes while nobody waits (a send reading the screen) is kept for the next wait, so that
// a turn ending in between is not slept through.
import type { FleetFeed } from '../turns/feed.js';

export class TaskChanges {
  private wake: (() => void) | null = null;
  private missed = false;
  private readonly stop: () => void;
  ended: string | null = null;

  constructor(feed: FleetFeed, taskId: number) {
    this.ended = feed.ended;
    this.stop = feed.subscribe(
      (event) => {
        if (event.task === taskId) this.nudge();
      },
      (why) => {
        this.ended = why;
        this.nudge();
      },
    );
  }

  private nudge(): void {
    if (this.wake !== null) this.wake();
    else this.missed = true;
  }

  /** Resolves at the task's next event (or one since the last wait), at the feed's end, or after `ms`. */
  next(ms: number): Promise<void> {
    if (this.ended !== null || this.missed) {
      this.missed = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.wake = done;
    });
  }

  close(): void {
    this.wake = null;
    this.stop();
  }
}
