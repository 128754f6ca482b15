// Control requests → supervisor operations, each handler typed by its op's reply (replies.ts).
// Only the mapping lives here: what each op does is the Supervisor's, and so is the queue.
import type { LsRecord, QueueRequest, RecipeTask, ReplyOf, ReplyTo, Request } from '../../control/protocol.js';
import { FleetError } from '../../errors.js';
import type { Spec } from '../spawn/spawn-plan.js';
import type { Task } from './task.js';

/** The operations a request maps to (the Supervisor's). */
export interface RequestTarget {
  status(): ReplyOf<'status'>;
  spawn(spec: Spec): Promise<Task>;
  reconcile(): Promise<void>;
  list(): LsRecord[];
  find(ref: string): Task;
  rerun(task: Task): Promise<Task>;
  kill(task: Task): Promise<void>;
  remove(task: Task): Promise<void>;
  update(task: Task, fields: Partial<Pick<Task, 'name' | 'group' | 'tagged'>>): LsRecord;
  paneDied(paneId: string): Promise<void>;
  next(from: string | null, client: string | null, wrap?: boolean): Promise<{ id: number } | null>;
  recipe(): RecipeTask[];
  load(entries: RecipeTask[], env: Record<string, string>): Promise<ReplyOf<'load'>>;
  adoptable(caller: string | null): Promise<ReplyOf<'adoptable'>>;
  adopt(targets: string[] | null, caller: string | null): Promise<ReplyOf<'adopt'>>;
  input(task: Task, bytes: Buffer): Promise<void>;
}

type Handlers = {
  [K in QueueRequest['op']]: (target: RequestTarget, request: Extract<Request, { op: K }>) => Promise<ReplyOf<K>> | ReplyOf<K>;
};

const handlers: Handlers = {
  status: (s) => s.status(),
  run: async (s, r) => ({ id: (await s.spawn(r)).id }),
  ls: async (s) => {
    await s.reconcile();
    return s.list();
  },
  rerun: async (s, r) => ({ id: (await s.rerun(s.find(r.task))).id }),
  kill: async (s, r) => {
    await s.kill(s.find(r.task));
    return null;
  },
  rm: async (s, r) => {
    await s.remove(s.find(r.task));
    return null;
  },
  rename: (s, r) => s.update(s.find(r.task), { name: r.name.trim() || null }),
  group: (s, r) => s.update(s.find(r.task), { group: r.group.trim() || null }),
  tag: (s, r) => {
    const task = s.find(r.task);
    return s.update(task, { tagged: !task.tagged });
  },
  // Windows hooked by a supervisor of an older fleetcom still send this request from their
  // pane-died hook (today's hook signals a wait-for channel); an adopter must answer it.
  'pane-died': async (s, r) => {
    await s.paneDied(r.pane);
    return null;
  },
  save: async (s) => {
    await s.reconcile();
    return s.recipe();
  },
  load: (s, r) => s.load(r.tasks, r.env),
  next: (s, r) => s.next(r.from, r.client, r.wrap),
  adoptable: (s, r) => s.adoptable(r.caller),
  adopt: (s, r) => s.adopt(r.targets, r.caller),
  down: () => {
    throw new FleetError('down is handled by the fleet loop');
  },
  // A stream, answered beside the queue for as long as it lasts (Supervisor.watch).
  watch: () => {
    throw new FleetError('watch is handled by the fleet loop');
  },
  input: async (s, r) => {
    await s.input(s.find(r.task), Buffer.from(r.data, 'base64'));
    return null;
  },
};

/**
 * The requests that only read the fleet, as they are answered while a change is in flight
 * (Supervisor.handle): from the state as it is, without the reconciliation `ls` and `save` run
 * first when the fleet is idle. That reconciliation changes the fleet (it records exits and
 * closed windows), so it would have to wait for the change; a read waiting with it is what
 * made `ls` take as long as a 200-task load. What a read sees then is whole (the task table is
 * changed only between the change's awaits, never half way through a task) and at most one
 * reconciliation old (RECONCILE_MS), except for the change itself: a load's tasks appear once
 * tmux has made their windows, a `down` shows tasks still running until it has stopped them.
 */
const reads: { [K in QueueRequest['op']]?: (target: RequestTarget, request: Extract<Request, { op: K }>) => Promise<ReplyOf<K>> | ReplyOf<K> } = {
  status: (s) => s.status(),
  ls: (s) => s.list(),
  next: (s, r) => s.next(r.from, r.client, r.wrap),
  save: (s) => s.recipe(),
  // Typing into a pane must not wait for a load of hundreds of tasks either.
  input: async (s, r) => {
    await s.input(s.find(r.task), Buffer.from(r.data, 'base64'));
    return null;
  },
};

/** A read its asker wants from the state as it is, even when the fleet is idle. */
export function wantsStateOnly(request: Request): boolean {
  return request.op === 'ls' && request.fromState === true;
}

/** The request's answer from the current state, or null for a request that changes the fleet. */
export function readNow<R extends QueueRequest>(target: RequestTarget, request: R): (() => Promise<ReplyTo<R>>) | null {
  const read = reads[request.op as QueueRequest['op']] as ((target: RequestTarget, request: R) => Promise<ReplyTo<R>> | ReplyTo<R>) | undefined;
  return read ? async () => read(target, request) : null;
}

export async function dispatch<R extends QueueRequest>(target: RequestTarget, request: R): Promise<ReplyTo<R>> {
  // TypeScript cannot tie the lookup by `op` to R; the table's type checks each handler.
  const handler = handlers[request.op] as (target: RequestTarget, request: R) => Promise<ReplyTo<R>> | ReplyTo<R>;
  return handler(target, request);
}
