// A supervisor without a dashboard (`up --headless`, or no terminal) still asks the hosts, for
// the alerts alone: a task on a host that needs the user must reach the same rules and targets
// whether or not a dashboard is open. Rounds as the dashboard's (the next one HOST_POLL_MS after
// the last ended), each host under the hosts' deadline; a host that does not answer is logged
// once until it answers again.
import { HOST_POLL_MS } from '../../dashboard/host-rows.js';
import type { FleetUiContext } from '../../fleet/lifecycle/fleet-ui.js';
import { dashboardHosts } from './dashboard-hosts.js';
import type { HostSettings } from './host-link-of.js';

type WatchContext = Pick<FleetUiContext, 'tmux' | 'sessionId' | 'cwd' | 'remoteAttention' | 'log'>;

/** Starts asking `hosts` in rounds; the returned function stops it. */
export function watchHostsForAlerts(hosts: readonly string[], settings: HostSettings, context: WatchContext): () => void {
  const feed = dashboardHosts(hosts, settings, context);
  const silent = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const round = () => {
    feed.poll()
      .then((answers) => {
        for (const answer of answers) {
          if (answer.failure === null) silent.delete(answer.host);
          else if (!silent.has(answer.host)) {
            silent.add(answer.host);
            context.log(`host ${answer.host} did not answer (its alerts wait until it does): ${answer.failure}`);
          }
        }
      }, (error: Error) => context.log(`could not ask the hosts: ${error.message}`))
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(round, HOST_POLL_MS);
        timer.unref();
      });
  };
  round();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}
