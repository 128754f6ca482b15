// `fleetcom ls --all-hosts [--hosts a,b] [--json]`: the tasks of this machine's fleet and of
// every host's, asked at once. A host that does not answer within the deadline
// (hostTimeoutSeconds) is shown with ssh's reason and the exit code is 1; the others show
// what they answered. `--json` prints one array of task records, each with `host` (null here).
import { list } from '../../control/shape.js';
import { lsRecordCheck, type LsRecord } from '../../control/replies.js';
import type { Deps } from '../../deps.js';
import { FleetError, NoFleetError } from '../../errors.js';
import { askHosts, plainText, type HostReply } from '../../remote/fan-out.js';
import { chosenHosts } from '../../remote/hosts-list.js';
import type { SshRun } from '../../remote/ssh-process.js';
import { ask } from '../ask.js';
import { hostSettings } from './host-link-of.js';
import { formatTaskTable } from '../tasks/ls-table.js';

export interface HostsLsOptions {
  json?: boolean;
  hosts?: string;
}

/** What a host's `ls --json` said: its tasks, or null when no fleet runs there (exit 3). */
export function readLsReply(run: SshRun, host: string): LsRecord[] | null {
  if (run.code === 3) return null;
  if (run.code !== 0) throw new FleetError(`host ${host}: ls failed: ${run.stderr.trim() || `exit ${run.code}`}`);
  let doc: unknown;
  try {
    doc = JSON.parse(run.stdout);
  } catch {
    throw new FleetError(`host ${host}: ls sent no JSON: ${run.stdout.slice(0, 200)}`);
  }
  try {
    return list(lsRecordCheck)(doc);
  } catch (error) {
    throw new FleetError(`host ${host}: ls sent an unreadable task list: ${(error as Error).message}`);
  }
}

async function localTasks(deps: Deps): Promise<HostReply<LsRecord[] | null>> {
  try {
    return { host: '', value: await ask(deps, { op: 'ls' }) };
  } catch (error) {
    if (error instanceof NoFleetError) return { host: '', value: null };
    return { host: '', failure: { host: 'local', kind: 'unreachable', reason: (error as Error).message } };
  }
}

/** The local fleet's answer and every host's, in the order given. */
export async function everyHostsTasks(deps: Deps, hostsFlag: string | undefined): Promise<Array<HostReply<LsRecord[] | null>>> {
  const settings = hostSettings(deps);
  const hosts = chosenHosts(hostsFlag, settings.hosts);
  const [local, remote] = await Promise.all([
    localTasks(deps),
    askHosts(settings.link, hosts, ['ls', '--json'], { deadlineMs: settings.timeoutMs, read: readLsReply }),
  ]);
  return [local, ...remote];
}

export async function runHostsLs(opts: HostsLsOptions, deps: Deps): Promise<number> {
  const replies = await everyHostsTasks(deps, opts.hosts);
  const failed = replies.filter((r) => r.failure !== undefined);
  if (opts.json) {
    const records = replies.flatMap((r) => (r.value ?? []).map((task) => ({ host: r.host === '' ? null : r.host, ...task })));
    deps.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
  } else {
    deps.stdout.write(replies.map((r) => section(r, deps.env.HOME)).join('\n'));
  }
  for (const r of failed) deps.stderr.write(`fleetcom: host ${r.failure?.host}: ${plainText(r.failure?.reason ?? '')}\n`);
  return failed.length > 0 ? 1 : 0;
}

function section(reply: HostReply<LsRecord[] | null>, home: string | undefined): string {
  const title = reply.host === '' ? 'this machine' : plainText(reply.host);
  if (reply.failure !== undefined) return `${title}: unreachable: ${plainText(reply.failure.reason)}\n`;
  if (reply.value === null) return `${title}: no fleet running\n`;
  if (reply.host === '') return `${title}\n${formatTaskTable(reply.value, home)}`;
  // A host's words are its own: shown without the control characters a terminal would obey.
  const tasks = reply.value.map((t) => ({ ...t, name: t.name === null ? null : plainText(t.name), command: t.command === null ? null : plainText(t.command), cwd: plainText(t.cwd) }));
  return `${title}\n${formatTaskTable(tasks, undefined)}`;
}
