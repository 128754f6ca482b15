// A send's wait for its task's next event: one that comes while the send reads the screen
// (nobody waiting) still ends the next wait at once, and the feed's end ends every wait.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskChanges } from '../../../src/fleet/delivery/changes.js';
import { FleetFeed, type Seen } from '../../../src/fleet/turns/feed.js';

const seen = (id: number, more: Partial<Seen> = {}): Seen => ({ id, run: 0, label: `t${id}`, ended: false, exitStatus: null, killed: false, conversationId: null, ...more });

/** Resolves to 'woken' or, once `ms` of fake time passed first, 'slept'. */
async function race(changes: TaskChanges, ms: number): Promise<'woken' | 'slept'> {
  let woke = false;
  const waiting = changes.next(ms).then(() => (woke = true));
  await Promise.resolve();
  await Promise.resolve();
  if (woke) return 'woken';
  await vi.advanceTimersByTimeAsync(ms);
  await waiting;
  return 'slept';
}

describe('TaskChanges', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps the task's event that came while nobody waited for the next wait, once", async () => {
    vi.useFakeTimers();
    let tasks = [seen(1), seen(2)];
    const feed = new FleetFeed(() => tasks, () => 0);
    const changes = new TaskChanges(feed, 1);
    tasks = [seen(1, { ended: true, exitStatus: 0 }), seen(2)];
    feed.changed(); // task 1 exited while the send was reading its screen
    expect(await race(changes, 60_000)).toBe('woken');
    expect(await race(changes, 1_000)).toBe('slept');
    tasks = [seen(1, { ended: true, exitStatus: 0 }), seen(2, { conversationId: 'c2' })];
    feed.changed(); // another task's event is not this one's
    expect(await race(changes, 1_000)).toBe('slept');
    changes.close();
  });

  it('wakes a wait under way at the event, and every wait after the feed ended', async () => {
    vi.useFakeTimers();
    let tasks = [seen(1)];
    const feed = new FleetFeed(() => tasks, () => 0);
    const changes = new TaskChanges(feed, 1);
    const waiting = changes.next(60_000);
    tasks = [seen(1, { conversationId: 'c1' })];
    feed.changed();
    await waiting;
    feed.close('the fleet went down', true);
    expect(changes.ended).toBe('the fleet went down');
    expect(await race(changes, 60_000)).toBe('woken');
    expect(await race(changes, 60_000)).toBe('woken');
    changes.close();
  });
});
