// Web Push for `fleetcom web`: the VAPID key and subscriptions beside the token, the alerts
// under config `notify`'s rules, the watched check from the page's viewers and tmux's clients.
import { join } from 'node:path';
import { effectiveSettings } from '../../config/settings.js';
import type { Deps } from '../../deps.js';
import { listClients } from '../../tmux/clients.js';
import type { TmuxRun } from '../../tmux/runner.js';
import type { FleetPort } from '../../web/fleet-port.js';
import { PushAlerts } from '../../web/push/push-alerts.js';
import type { PushService } from '../../web/push/push-service.js';
import { WebPush } from '../../web/push/web-push.js';
import { webDir } from '../../web/token-store.js';

export interface RunningPush extends PushService {
  start(): void;
  stop(): void;
}

export function webPush(deps: Deps, fleet: FleetPort, tmux: TmuxRun, watching: (task: number) => boolean, log: (line: string) => void): RunningPush {
  const push = new WebPush({ file: join(webDir(deps.env), 'push.json'), now: deps.now, log });
  const alerts = new PushAlerts(effectiveSettings(deps).settings.notify, {
    tasks: () => fleet.tasks(),
    watchedOnPage: watching,
    clients: () => listClients(tmux),
    send: (message) => push.send(message),
    active: () => push.count > 0,
    now: deps.now,
    log,
  });
  return {
    status: () => push.status(),
    publicKey: () => push.publicKey(),
    subscribe: (body) => push.subscribe(body),
    unsubscribe: (body) => push.unsubscribe(body),
    start: () => alerts.start(),
    stop: () => alerts.stop(),
  };
}
