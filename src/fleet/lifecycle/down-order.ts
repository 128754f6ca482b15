// The order `down` keeps: every task stopped, only then the recovery snapshot marked closed,
// then the teardown (bindings, namespaces, state.json). A closed snapshot tells `up` and
// `recover` that the fleet ended on purpose, so one marked while a task still runs would hide
// a live fleet from recovery. A task that outlives SIGKILL stops `down` before the snapshot is
// touched. A teardown that fails comes after every task stopped: the snapshot stays closed
// (what the user asked for has happened to every task), and a task started in the fleet that
// goes on serving reopens it (RecoveryWriter.taskStarting).

export interface DownSteps {
  /** Stops every task; throws when one outlives SIGKILL. */
  stopTasks: () => Promise<void>;
  snapshot: { close(closed: boolean): Promise<void> };
  tearDown: () => Promise<void>;
}

export async function downInOrder(steps: DownSteps): Promise<void> {
  await steps.stopTasks();
  await steps.snapshot.close(true);
  await steps.tearDown();
}
