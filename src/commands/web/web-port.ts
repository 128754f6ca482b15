// The fleet as `fleetcom web` reaches it: `ls` over the control socket (the same request as
// `fleetcom ls --json`), the hosts through the same fan-out as `ls --all-hosts`, and every
// other verb run as the CLI runs it (web/cli-verbs.ts), so the page gets the CLI's own JSON.
import type { LsRecord } from '../../control/replies.js';
import type { Deps } from '../../deps.js';
import { cliPaths } from '../../fleet/runtime-files.js';
import { askHosts } from '../../remote/fan-out.js';
import { answerOf, runVerb, type CliVerbOptions } from '../../web/cli-verbs.js';
import type { FleetPort, HostTasks, VerbAnswer } from '../../web/fleet-port.js';
import { ask } from '../ask.js';
import { hostSettings } from '../hosts/host-link-of.js';
import { readLsReply } from '../hosts/hosts-ls.js';

/** A list asked within this long of the last is answered from it: pages poll, the supervisor need not. */
const TASKS_FRESH_MS = 500;
/** The hosts are asked in the background at most this often; the page gets the last answers. */
const HOSTS_EVERY_MS = 5_000;

export function webPort(deps: Deps): FleetPort {
  const { node, script } = cliPaths();
  const verbs: CliVerbOptions = { node, script, env: deps.env, cwd: deps.cwd, timeoutMs: 120_000 };
  const settings = hostSettings(deps);
  let tasks: { at: number; value: Promise<LsRecord[]> } | null = null;
  let hosts: HostTasks[] = settings.hosts.map((host) => ({ host, tasks: null, failure: null }));
  let hostsAt = -Infinity;
  let asking = false;

  const refreshHosts = () => {
    if (asking || settings.hosts.length === 0 || deps.now() - hostsAt < HOSTS_EVERY_MS) return;
    asking = true;
    void askHosts(settings.link, settings.hosts, ['ls', '--json'], { deadlineMs: settings.timeoutMs, read: readLsReply })
      .then((replies) => {
        hosts = replies.map((r) => ({ host: r.host, tasks: r.value ?? null, failure: r.failure === undefined ? null : r.failure.reason }));
      })
      .catch(() => {})
      .finally(() => {
        asking = false;
        hostsAt = deps.now();
      });
  };

  const verb = async (name: string, args: string[], input = ''): Promise<VerbAnswer> => answerOf(await runVerb(verbs, [name, ...args], input), name);

  return {
    tasks() {
      const now = deps.now();
      if (tasks === null || now - tasks.at > TASKS_FRESH_MS) {
        const value = ask(deps, { op: 'ls' });
        tasks = { at: now, value };
        value.catch(() => {
          if (tasks?.value === value) tasks = null;
        });
      }
      return tasks.value;
    },
    async hosts() {
      refreshHosts();
      return hosts;
    },
    send: (task, text) => verb('send', [String(task), '-', '--json'], text),
    output: (task) => verb('output', [String(task), '--json']),
    history: (cwd) => verb('history', ['--cwd', cwd, '--json', '--limit', '200']),
    async resume(id) {
      // resume prints the task's id alone (a new one, or the one that has the conversation open).
      const run = await runVerb(verbs, ['resume', id]);
      const printed = run.stdout.trim();
      return run.code === 0 && /^\d{1,9}$/.test(printed) ? { status: 200, body: { task: Number(printed) } } : answerOf(run, 'resume');
    },
    async events(onEvent, signal) {
      const run = await runVerb({ ...verbs, timeoutMs: undefined }, ['events', '--json'], '', (line) => {
        try {
          onEvent(JSON.parse(line));
        } catch {
          onEvent({ text: line });
        }
      }, signal);
      return answerOf(run, 'events');
    },
  };
}
