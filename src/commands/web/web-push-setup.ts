// Web Push for `fleetcom web`: off until the page is served over HTTPS (web/push/).
import type { Deps } from '../../deps.js';
import type { FleetPort } from '../../web/fleet-port.js';
import type { PushService } from '../../web/push/push-service.js';

export interface RunningPush extends PushService {
  start(): void;
  stop(): void;
}

export function webPush(_deps: Deps, _fleet: FleetPort, _watching: (task: number) => boolean, _log: (line: string) => void): RunningPush | null {
  return null;
}
