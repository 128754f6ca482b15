// The order `down` keeps: every task stopped, only then the recovery snapshot marked closed,
// then the teardown (bindings, namespaces, state.json). A closed snapshot tells `up` and
// `recover` that the fleet ended on purpose, so one marked while a task still runs would hide
// a live fleet from recovery. A step that fails reopens the snapshot: the fleet goes on, and
// `down` can be run again.

export interface DownSteps {
  /** Stops every task; throws when one outlives SIGKILL. */
  stopTasks: () => Promise<void>;
  snapshot: { close(closed: boolean): Promise<void>; reopen(): void };
  tearDown: () => Promise<void>;
}

export async function downInOrder(steps: DownSteps): Promise<void> {
  try {
    await steps.stopTasks();
    await steps.snapshot.close(true);
    await steps.tearDown();
  } catch (error) {
    steps.snapshot.reopen();
    throw error;
  }
}
