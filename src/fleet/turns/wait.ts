// `wait`: until a turn ended (`waiting`), any state that needs the user (`needs-you`: waiting,
// a question, a permission) or the task's end (`exited`), for any or all of the tasks named.
// Judged from the fleet's own state at the start and again at each event of the feed: never
// by asking tmux. A task that exits, leaves the fleet or sends no signals can never meet a
// turn's condition: that ends the wait too (as not met), rather than waiting for ever.
import type { BesideRequest, ReplyOf, WaitTask } from '../../control/protocol.js';
import { FleetError } from '../../errors.js';
import { Streamed } from '../../control/stream.js';
import type { FleetState } from '../supervisor/fleet-state.js';
import { endedText, labelOf, taskState, type Task } from '../supervisor/task.js';

type WaitRequest = Extract<BesideRequest, { op: 'wait' }>;
export type WaitReply = ReplyOf<'wait'>;

/** One waited task as it is now. */
export function judge(fleet: FleetState, ref: { id: number; label: string; task: Task | null }, request: Pick<WaitRequest, 'until' | 'turn'>): WaitTask {
  const { task } = ref;
  const base = { task: ref.id, label: ref.label, question: false, turn: null, turnsEnded: null, exitStatus: null, since: null };
  if (task === null) return { ...base, state: 'removed', attention: null, met: request.until === 'exited', never: request.until === 'exited' ? null : `task ${ref.id} left the fleet` };
  const now = fleet.deps.now();
  const attention = fleet.attention.of(task);
  const turns = fleet.attention.turnsOf(task);
  const state = taskState(task, now, fleet.deps.idleMs);
  const view = {
    ...base, state, attention: attention.attention, question: attention.question === true, turn: turns?.now ?? null, turnsEnded: turns?.ended ?? null,
    exitStatus: task.exitStatus, since: new Date(attention.since ?? (task.endedAt ?? task.lastOutputAt)).toISOString(),
  };
  if (request.until === 'exited') return { ...view, met: task.endedAt !== null, never: null };
  if (task.endedAt !== null) {
    return { ...view, met: false, never: endedText(task) };
  }
  if (turns === null) return { ...view, met: false, never: `task ${task.id} sends no turn signals (${task.harness === null ? 'a plain command' : `fleetcom hears nothing from ${task.harness}`}): wait --until exited waits for its end` };
  const want = request.turn;
  const needsYou = attention.attention === 'permission' || attention.attention === 'waiting';
  const met = request.until === 'waiting'
    ? (want === null ? attention.attention === 'waiting' && attention.question !== true : turns.ended >= want)
    : needsYou && (want === null || turns.now >= want);
  return { ...view, met, never: null };
}

interface Outcome {
  met: boolean;
  done: boolean;
  why: string | null;
}

/** Whether the wait is over: `any` once one is met (or none ever can be), `all` once all are (or one never can be). */
export function outcome(tasks: readonly WaitTask[], mode: 'any' | 'all'): Outcome {
  if (mode === 'any') {
    if (tasks.some((t) => t.met)) return { met: true, done: true, why: null };
    if (tasks.every((t) => t.never !== null)) return { met: false, done: true, why: tasks.map((t) => t.never).join('; ') };
    return { met: false, done: false, why: null };
  }
  if (tasks.every((t) => t.met)) return { met: true, done: true, why: null };
  const never = tasks.find((t) => !t.met && t.never !== null);
  return never ? { met: false, done: true, why: never.never } : { met: false, done: false, why: null };
}

export function waitStream(fleet: FleetState, request: WaitRequest): Streamed<WaitReply> {
  const refs = request.tasks.map((ref) => {
    const task = fleet.tasks.lookup(ref);
    if (!task) throw new FleetError(`no task ${ref} in this fleet (see fleetcom ls)`);
    return { id: task.id, label: labelOf(task) };
  });
  const ids = new Set(refs.map((r) => r.id));
  const look = () => refs.map((r) => judge(fleet, { ...r, task: fleet.tasks.get(r.id) ?? null }, request));
  return new Streamed((out) => new Promise<WaitReply>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let stop = () => {};
    const finish = (result: WaitReply) => {
      clearTimeout(timer);
      stop();
      resolve(result);
    };
    const check = () => {
      const tasks = look();
      const { met, done, why } = outcome(tasks, request.mode);
      if (done) finish({ met, timedOut: false, why, tasks });
    };
    stop = fleet.feed.subscribe(
      (event) => {
        if (!ids.has(event.task)) return;
        out.send(event);
        check();
      },
      (why) => finish({ met: false, timedOut: false, why, tasks: look() }),
    );
    out.signal.addEventListener('abort', () => finish({ met: false, timedOut: false, why: 'the client went away', tasks: look() }), { once: true });
    if (request.timeoutMs !== null) timer = setTimeout(() => finish({ met: false, timedOut: true, why: null, tasks: look() }), request.timeoutMs);
    if (fleet.feed.ended !== null) finish({ met: false, timedOut: false, why: fleet.feed.ended, tasks: look() });
    else check();
  }));
}
