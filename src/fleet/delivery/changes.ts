// A wait for the next event of one task (or the end of the feed), bounded: how a send waits
// for its task to need input or for the agent's signal, without asking tmux in a loop.
import type { FleetFeed } from '../turns/feed.js';

export class TaskChanges {
  private wake: (() => void) | null = null;
  private readonly stop: () => void;
  ended: string | null = null;

  constructor(feed: FleetFeed, taskId: number) {
    this.ended = feed.ended;
    this.stop = feed.subscribe(
      (event) => {
        if (event.task === taskId) this.wake?.();
      },
      (why) => {
        this.ended = why;
        this.wake?.();
      },
    );
  }

  /** Resolves at the task's next event, at the feed's end, or after `ms`. */
  next(ms: number): Promise<void> {
    if (this.ended !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  close(): void {
    this.wake = null;
    this.stop();
  }
}
