// `fleetcom events [--json] [--task N] [--all-hosts]`: one line per transition of the fleet as
// it happens (fleet/turns/feed.ts), until the fleet goes down. `--all-hosts` merges every
// configured host's `events --json` (over the user's ssh) into the same stream, each of their
// lines with its `host`.
import { streamSupervisor } from '../../control/client.js';
import { feedEventCheck, type FeedEvent } from '../../control/replies.js';
import type { Deps } from '../../deps.js';
import { FleetError, NoFleetError } from '../../errors.js';
import { plainText } from '../../remote/fan-out.js';
import { callHost } from '../../remote/host-link.js';
import { chosenHosts } from '../../remote/hosts-list.js';
import { describeFailure } from '../../remote/outcome.js';
import { fleetRuntime } from '../../paths.js';
import { hostSettings } from '../hosts/host-link-of.js';

/**
 * Follows the fleet's events (the in-process API): resolves with why the stream ended and
 * whether that was its own end (`down`: the fleet went down, the followed task left), or null
 * when onEvent stopped it.
 */
export async function followEvents(deps: Pick<Deps, 'env'>, opts: { task?: string | null; socket?: string }, onEvent: (event: FeedEvent) => void | 'stop'): Promise<{ ended: string; down: boolean } | null> {
  const result = await streamSupervisor(opts.socket ?? fleetRuntime(deps.env).socket, { op: 'events', task: opts.task ?? null }, {
    onEvent: (event) => onEvent(feedEventCheck(event, 'event')),
  });
  return result === null ? null : { ended: result.ended, down: result.down === true };
}

/** An event in words: `2026-12-07T10:00:00.000Z task 3 (claude) waiting, turn 2`. */
export function eventLine(e: FeedEvent): string {
  const where = e.host === undefined ? '' : `${plainText(e.host)} `;
  const turn = e.turn === undefined || e.turn === null ? '' : `, turn ${e.turn}`;
  const what = e.type === 'exited' ? `exited${e.killed ? ' (killed)' : e.exitStatus === null || e.exitStatus === undefined ? '' : ` with status ${e.exitStatus}`}`
    : e.type === 'conversation' || (e.type === 'started' && e.conversationId) ? `${e.type} ${e.conversationId ?? ''}`.trim()
    : e.type;
  const text = e.text ? `: ${plainText(e.text)}` : '';
  return `${e.at} ${where}task ${e.task} (${plainText(e.label)}) ${what}${turn}${text}`;
}

export interface EventsFlags {
  json?: boolean;
  task?: string;
  allHosts?: boolean;
  hosts?: string;
}

export async function runEvents(opts: EventsFlags, deps: Deps): Promise<number> {
  const print = (event: FeedEvent): void => void deps.stdout.write(opts.json ? `${JSON.stringify(event)}\n` : `${eventLine(event)}\n`);
  if (!opts.allHosts && opts.hosts === undefined) {
    const ended = await followEvents(deps, { task: opts.task }, print);
    deps.stderr.write(`events ended: ${ended?.ended ?? 'stopped'}\n`);
    // Exit 0 at the stream's own end; 1 when the supervisor stopped with the tasks running on.
    return ended?.down === false ? 1 : 0;
  }
  const settings = hostSettings(deps);
  const hosts = chosenHosts(opts.hosts, settings.hosts);
  const words = ['events', '--json', ...(opts.task === undefined ? [] : ['--task', opts.task])];
  const remote = hosts.map((host) => followHost(settings.link, host, words, print, deps));
  // No fleet here is no failure: the hosts' streams go on (as ls --all-hosts shows the hosts).
  const local = followEvents(deps, { task: opts.task }, print).then(
    (ended) => {
      deps.stderr.write(`events ended here: ${ended?.ended ?? 'stopped'}\n`);
      if (ended?.down === false) throw new FleetError('the supervisor here stopped');
    },
    (error: unknown) => {
      if (!(error instanceof NoFleetError)) throw error;
      deps.stderr.write('this machine: no fleet running\n');
    },
  );
  const results = await Promise.allSettled([local, ...remote]);
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const f of failed) deps.stderr.write(`fleetcom: ${(f.reason as Error).message}\n`);
  return failed.length > 0 ? 1 : 0;
}

/** A host's `events --json`, each line read as it comes and given its `host`. */
async function followHost(link: Parameters<typeof callHost>[0], host: string, words: string[], print: (e: FeedEvent) => void, deps: Deps): Promise<void> {
  let partial = '';
  const { run, failure } = await callHost(link, host, words, {
    deadlineMs: null,
    batch: true,
    onStdout: (text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines.filter((l) => l.trim() !== '')) {
        try {
          print({ ...feedEventCheck(JSON.parse(line) as unknown, 'event'), host });
        } catch {
          deps.stderr.write(`fleetcom: host ${plainText(host)} sent a line that is not an event: ${plainText(line.slice(0, 200))}\n`);
        }
      }
    },
    onStderr: (text) => deps.stderr.write(text.split('\n').filter(Boolean).map((l) => `${plainText(host)}: ${plainText(l)}\n`).join('')),
  });
  if (failure !== null) throw new FleetError(describeFailure(failure));
  if (run.code !== 0) throw new FleetError(`host ${host}: events ended with exit ${run.code ?? 'unknown'}`);
}
