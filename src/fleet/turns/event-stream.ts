// `events`: every transition of the fleet, or of one task, as it happens, until the fleet
// goes down (or that task leaves it). The socket's backpressure holds the producer: a reader
// that stops reading costs the supervisor a socket buffer, not its memory.
import type { BesideRequest, FeedEvent, ReplyOf } from '../../control/protocol.js';
import { FleetError } from '../../errors.js';
import { Streamed } from '../../control/stream.js';
import type { FleetState } from '../supervisor/fleet-state.js';

type EventsRequest = Extract<BesideRequest, { op: 'events' }>;

/** Events a slow reader may be behind by before it is cut off (its socket buffer is full too). */
const BEHIND_MAX = 10_000;

export function eventStream(fleet: FleetState, request: EventsRequest): Streamed<ReplyOf<'events'>> {
  const only = request.task === null ? null : fleet.tasks.lookup(request.task);
  if (only === undefined) throw new FleetError(`no task ${request.task} in this fleet (see fleetcom ls)`);
  return new Streamed((out) => new Promise((resolve) => {
    // Each event waits for the socket to take the one before when its buffer is full.
    let sending = Promise.resolve();
    let behind = 0;
    let done = false;
    let stop = () => {};
    // `down`: the stream's own end (the fleet went down, the one task followed left it).
    const finish = (ended: string, down = false) => {
      if (done) return;
      done = true;
      stop();
      void sending.then(() => resolve({ ended, down }));
    };
    const send = (event: FeedEvent) => {
      behind += 1;
      sending = sending.then(async () => {
        behind -= 1;
        if (!out.signal.aborted && !out.send(event)) await out.drained();
      });
    };
    stop = fleet.feed.subscribe(
      (event) => {
        if (only !== null && event.task !== only.id) return;
        if (behind >= BEHIND_MAX) return finish(`the reader fell ${BEHIND_MAX} events behind`);
        send(event);
        if (only !== null && event.type === 'removed') finish(`task ${only.id} left the fleet`, true);
      },
      (why) => finish(why, fleet.feed.wentDown),
    );
    out.signal.addEventListener('abort', () => finish('the client went away'), { once: true });
    if (fleet.feed.ended !== null) finish(fleet.feed.ended, fleet.feed.wentDown);
  }));
}
