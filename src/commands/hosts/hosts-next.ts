// `next` in a fleet that reaches hosts (config `hosts`, up --hosts): this machine's tasks that
// need the user first, in the supervisor's own order, then each host's in the order of the
// hosts, then round again. A host's task is shown the way the dashboard's Enter shows it: the
// host's local window (`ssh -t HOST tmux attach`) with the task's window selected there. The
// hosts are asked only once this machine has none left after the current one, so the local
// case costs what it did; a host that does not answer within the deadline is passed over.
import { callerEnv, type Deps } from '../../deps.js';
import { askHosts } from '../../remote/fan-out.js';
import { nextOnHosts, type HostTasks } from '../../remote/remote-next.js';
import type { RemoteTarget } from '../../remote/remote-tmux.js';
import { HOST_TASK_OPTION, HOST_WINDOW_OPTION, showRemoteTask } from '../../remote/remote-window.js';
import { TmuxRunner } from '../../tmux/runner.js';
import { ask } from '../ask.js';
import { hostSettings } from './host-link-of.js';
import { readLsReply } from './hosts-ls.js';

export interface NextRequest {
  from: string | null;
  client: string | null;
  socket?: string;
}

export type Shown = { id: number; host?: undefined } | { id: number; host: string } | null;

/** Pure: the host and task a local window shows, from `#{@fleetcom-host} #{@fleetcom-host-task}`. */
export function shownHostTask(text: string): { host: string; id: number } | null {
  const m = /^(\S+) (\d{1,9})$/.exec(text.trim());
  return m === null ? null : { host: m[1] as string, id: Number(m[2]) };
}

export async function nextAcrossHosts(req: NextRequest, hosts: readonly string[], status: { tmuxSocket?: string | null; tmuxSessionId: string }, deps: Deps): Promise<Shown> {
  const tmux = new TmuxRunner({ env: callerEnv(deps), socketPath: status.tmuxSocket ?? undefined });
  const onHost = req.from !== null && /^%\d+$/.test(req.from)
    ? shownHostTask(await tmux.run(['display-message', '-p', '-t', req.from, `#{${HOST_WINDOW_OPTION}} #{${HOST_TASK_OPTION}}`]).catch(() => ''))
    : null;
  const local = (from: string | null, wrap: boolean) => ask(deps, { op: 'next', from, client: req.client, wrap }, req.socket);
  if (onHost === null) {
    const here = await local(req.from, false);
    if (here !== null) return here;
  }
  const settings = hostSettings(deps);
  const replies = await askHosts(settings.link, hosts, ['ls', '--json'], { deadlineMs: settings.timeoutMs, read: readLsReply });
  const answered: HostTasks[] = replies.flatMap((r) => (r.value ? [{ host: r.host, tasks: r.value }] : []));
  const show = async (target: RemoteTarget): Promise<Shown> => {
    await showRemoteTask({ tmux, sessionId: status.tmuxSessionId, client: req.client, cwd: deps.cwd }, settings.link, target, settings.timeoutMs);
    return { id: target.id, host: target.host };
  };
  const after = nextOnHosts(answered, onHost);
  if (after !== null) return show(after);
  // Round again: this machine's first, else the hosts' first.
  const first = await local(onHost === null ? req.from : null, true);
  if (first !== null) return first;
  const remoteFirst = nextOnHosts(answered, null);
  return remoteFirst === null ? null : show(remoteFirst);
}
