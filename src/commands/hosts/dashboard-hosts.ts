// The dashboard's reach to the hosts, wired here so the dashboard knows only an interface
// (dashboard/host-rows.ts): the same fan-out and reply check as `ls --all-hosts`, the host's
// attach window of `next` (remote/remote-window.ts), capture-pane and rerun over the host's
// master, each under the hosts' deadline (hostTimeoutSeconds).
import type { HostAnswer, HostsFeed } from '../../dashboard/host-rows.js';
import type { FleetUiContext } from '../../fleet/lifecycle/fleet-ui.js';
import { askHosts, plainText } from '../../remote/fan-out.js';
import { callHost } from '../../remote/host-link.js';
import { describeFailure } from '../../remote/outcome.js';
import { captureRemotePane } from '../../remote/remote-tmux.js';
import { showRemoteTask } from '../../remote/remote-window.js';
import type { HostSettings } from './host-link-of.js';
import { readLsReply } from './hosts-ls.js';
import type { LsRecord } from '../../control/protocol.js';
import type { RemoteAttention } from '../../fleet/attention/alerts.js';

/**
 * A host's tasks as one poll saw them, to the alerts: each task's attention (a task gone since
 * the last poll: none). A host that did not answer changes nothing: its tasks are unknown, not gone.
 */
export function tellAttention(host: string, tasks: readonly LsRecord[], told: Map<string, RemoteAttention>, tell: FleetUiContext['remoteAttention'] | undefined): void {
  if (tell === undefined) return;
  const seen = new Set<string>();
  for (const t of tasks) {
    const key = `${host}/${t.id}`;
    seen.add(key);
    const now: RemoteAttention = {
      host, taskId: t.id, label: t.name ?? t.command ?? `task ${t.id}`, attention: t.state === 'exited' ? null : t.attention,
      message: null, directory: t.cwd, conversation: t.conversationId,
    };
    tell(now, told.get(key)?.attention);
    told.set(key, now);
  }
  for (const [key, before] of told) {
    if (before.host !== host || seen.has(key)) continue;
    tell({ ...before, attention: null }, before.attention);
    told.delete(key);
  }
}

export function dashboardHosts(
  hosts: readonly string[], settings: HostSettings, context: Pick<FleetUiContext, 'tmux' | 'sessionId' | 'cwd' | 'remoteAttention'>,
): HostsFeed {
  const { link, timeoutMs } = settings;
  const told = new Map<string, RemoteAttention>();
  return {
    hosts,
    async poll(): Promise<HostAnswer[]> {
      const replies = await askHosts(link, hosts, ['ls', '--json'], { deadlineMs: timeoutMs, read: readLsReply });
      for (const r of replies) if (r.failure === undefined && r.value !== null) tellAttention(r.host, r.value, told, context.remoteAttention);
      return replies.map((r) => (r.failure !== undefined
        ? { host: r.host, tasks: null, failure: plainText(r.failure.reason) }
        : { host: r.host, tasks: r.value, failure: null }));
    },
    async show(target) {
      const how = await showRemoteTask({ tmux: context.tmux, sessionId: context.sessionId, client: null, cwd: context.cwd }, link, target, timeoutMs);
      return how === 'opened' ? `task ${target.id} of ${target.host}: opened over ssh` : '';
    },
    capture: (target) => captureRemotePane(link, target, timeoutMs),
    async rerun(target) {
      const { run, failure } = await callHost(link, target.host, ['rerun', String(target.id)], { deadlineMs: timeoutMs, batch: true });
      if (failure !== null) throw new Error(describeFailure(failure));
      if (run.code !== 0) throw new Error(`host ${target.host}: ${plainText(run.stderr.trim().replace(/^fleetcom: /, '')) || `rerun exited ${run.code}`}`);
      return `task ${target.id} of ${target.host} rerun`;
    },
  };
}
