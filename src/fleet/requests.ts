// Control requests → supervisor operations. Only the mapping lives here: what each op does is
// the Supervisor's, and the queue that runs requests one at a time is too.
import type { RecipeTask, Request } from '../control/protocol.js';
import { FleetError } from '../errors.js';
import type { Spec } from './spawn-plan.js';
import type { LsRecord, Task } from './task.js';

/** The operations a request maps to (the Supervisor's). */
export interface RequestTarget {
  status(): unknown;
  spawn(spec: Spec): Promise<Task>;
  reconcile(): Promise<void>;
  list(): LsRecord[];
  find(ref: string): Task;
  rerun(task: Task): Promise<Task>;
  kill(task: Task): Promise<void>;
  remove(task: Task): Promise<void>;
  update(task: Task, fields: Partial<Pick<Task, 'name' | 'group' | 'tagged'>>): LsRecord;
  paneDied(paneId: string): Promise<void>;
  next(from: string | null, client: string | null): Promise<{ id: number } | null>;
  recipe(): RecipeTask[];
  load(entries: RecipeTask[], env: Record<string, string>): Promise<unknown>;
}

export async function dispatch(supervisor: RequestTarget, request: Request): Promise<unknown> {
  switch (request.op) {
    case 'status':
      return supervisor.status();
    case 'run':
      return { id: (await supervisor.spawn(request)).id };
    case 'ls':
      await supervisor.reconcile();
      return supervisor.list();
    case 'rerun':
      return { id: (await supervisor.rerun(supervisor.find(request.task))).id };
    case 'kill':
      await supervisor.kill(supervisor.find(request.task));
      return null;
    case 'rm':
      await supervisor.remove(supervisor.find(request.task));
      return null;
    case 'rename':
      return supervisor.update(supervisor.find(request.task), { name: request.name.trim() || null });
    case 'group':
      return supervisor.update(supervisor.find(request.task), { group: request.group.trim() || null });
    case 'tag': {
      const task = supervisor.find(request.task);
      return supervisor.update(task, { tagged: !task.tagged });
    }
    case 'pane-died':
      // Windows hooked by a supervisor of an older fleetcom still send this request from their
      // pane-died hook (today's hook signals a wait-for channel); an adopter must answer it.
      await supervisor.paneDied(request.pane);
      return null;
    case 'save':
      await supervisor.reconcile();
      return supervisor.recipe();
    case 'load':
      return supervisor.load(request.tasks, request.env);
    case 'next':
      return supervisor.next(request.from, request.client);
    case 'down':
      throw new FleetError('down is handled by the fleet loop');
  }
}
