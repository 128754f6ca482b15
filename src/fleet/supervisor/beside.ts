// The requests answered beside the queue of changes (protocol.ts BESIDE_OPS): they last (a
// send waits for its agent, a wait for its condition, the event feed for the fleet's end) or
// only read, and must never hold the fleet's changes up. What they change goes on the queue
// (a send's confirmed prompt). `wait` and `events` answer with a stream (control/stream.ts).
import type { BesideRequest } from '../../control/protocol.js';
import { sendMessage, type SendReply } from '../delivery/send.js';
import { SEND_MAX_BYTES } from '../delivery/message.js';
import { eventStream } from '../turns/event-stream.js';
import { replyOf } from '../turns/output.js';
import { waitStream } from '../turns/wait.js';
import type { FleetState } from './fleet-state.js';

export class Beside {
  /** One send at a time per task: two messages must not be typed into one composer together. */
  private readonly sending = new Map<number, Promise<unknown>>();

  constructor(private readonly fleet: FleetState, private readonly enqueue: <T>(work: () => Promise<T>) => Promise<T>) {}

  async answer(request: BesideRequest): Promise<unknown> {
    switch (request.op) {
      case 'send':
        return this.send(request);
      case 'wait':
        return waitStream(this.fleet, request);
      case 'output':
        return replyOf(this.fleet, request);
      case 'events':
        return eventStream(this.fleet, request);
    }
  }

  /** The fleet goes down (`down`) or its supervisor stops: every wait and feed ends with this reason. */
  close(why: string, down: boolean): void {
    this.fleet.feed.close(why, down);
  }

  private async send(request: Extract<BesideRequest, { op: 'send' }>): Promise<SendReply> {
    const id = this.fleet.tasks.lookup(request.task)?.id;
    const before = id === undefined ? undefined : this.sending.get(id);
    const run = (before ?? Promise.resolve()).catch(() => undefined).then(() =>
      sendMessage({ fleet: this.fleet, enqueue: this.enqueue, maxBytes: this.fleet.deps.sendMaxBytes ?? SEND_MAX_BYTES }, request));
    if (id !== undefined) {
      this.sending.set(id, run);
      void run.catch(() => undefined).then(() => {
        if (this.sending.get(id) === run) this.sending.delete(id);
      });
    }
    return run;
  }
}
