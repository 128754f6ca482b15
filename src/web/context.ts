// What the API and the terminal socket share: the fleet, the transport, the viewers, the mode.
import type { FleetPort } from './fleet-port.js';
import type { PaneTransport } from './pane-transport.js';
import type { PushService } from './push/push-service.js';
import type { Viewers } from './viewers.js';

export interface ApiContext {
  fleet: FleetPort;
  readOnly: boolean;
  now: () => number;
  push: PushService | null;
  viewers: Viewers;
  port: () => number;
  token: () => string;
  transport: PaneTransport;
  version: string;
}
