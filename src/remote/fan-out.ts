// One question to many hosts at once. Every host gets the same deadline and its own ssh; a host
// that has not answered by then is given up (its ssh killed) and reported with ssh's reason,
// so one dropped host never holds the answers of the others past that deadline.
import { callHost, type HostLink } from './host-link.js';
import type { HostFailure } from './outcome.js';
import type { SshRun } from './ssh-process.js';

export type HostReply<T> = { host: string; value: T; failure?: undefined } | { host: string; failure: HostFailure; value?: undefined };

/**
 * Runs `fleetcom <words>` on every host in parallel, BatchMode (no host may stop the others on
 * a prompt), and reads each answer with `read`, which may throw to report a reply it cannot use.
 */
export function askHosts<T>(
  link: HostLink,
  hosts: readonly string[],
  words: readonly string[],
  opts: { deadlineMs: number; read: (run: SshRun, host: string) => T },
): Promise<Array<HostReply<T>>> {
  return Promise.all(hosts.map(async (host): Promise<HostReply<T>> => {
    try {
      const { run, failure } = await callHost(link, host, words, { deadlineMs: opts.deadlineMs, batch: true });
      if (failure !== null) return { host, failure };
      return { host, value: opts.read(run, host) };
    } catch (error) {
      return { host, failure: { host, kind: 'unreachable', reason: (error as Error).message } };
    }
  }));
}

const CONTROL = /\p{Cc}/gu;

/** Text from a host for this terminal: its control characters (escape sequences) shown as `?`. */
export function plainText(text: string): string {
  return text.replace(CONTROL, '?');
}
