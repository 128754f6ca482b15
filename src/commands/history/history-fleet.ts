// The running fleet as `history` and `resume` see it; no fleet: no tasks.
import type { Deps } from '../../deps.js';
import { NoFleetError } from '../../errors.js';
import { fleetViewOf, NO_FLEET, type FleetView } from '../../history/index.js';
import { ask } from '../ask.js';

export async function fleetView(deps: Deps): Promise<FleetView> {
  try {
    return fleetViewOf(await ask(deps, { op: 'ls' }), await ask(deps, { op: 'save' }));
  } catch (error) {
    if (error instanceof NoFleetError) return NO_FLEET;
    throw error;
  }
}
