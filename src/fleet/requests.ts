// Control requests → supervisor operations. Only the mapping lives here: what each op does is
// the Supervisor's, and the queue that runs requests one at a time is too.
import type { Request } from '../control/protocol.js';
import { FleetError } from '../errors.js';
import type { Supervisor } from './supervisor.js';

export async function dispatch(supervisor: Supervisor, request: Request): Promise<unknown> {
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
