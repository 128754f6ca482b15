// The host a command acts on, as the user typed it: whatever their `ssh` accepts (an alias of
// ~/.ssh/config, `user@host`, `host:port` is not ssh's form). fleetcom hands it to ssh as one
// argv word after `--`, so a word that ssh would read as an option (`-oProxyCommand=…`) or
// that holds whitespace or control characters (which ssh's config matching and the remote
// shell's word splitting would cut) is refused before anything runs.
import { UsageError } from '../errors.js';

const MAX_HOST_CHARS = 255;
const UNSAFE = /[\s\p{Cc}]/u;

/** Why `host` cannot be a host, or null when it can. */
export function hostProblem(host: string): string | null {
  if (host === '') return 'it is empty';
  if (host.startsWith('-')) return 'it starts with "-" (ssh would read it as an option)';
  if (UNSAFE.test(host)) return 'it holds whitespace or a control character';
  if (host.length > MAX_HOST_CHARS) return `it is longer than ${MAX_HOST_CHARS} characters`;
  return null;
}

/** `host` unchanged, or a UsageError naming where it came from and why it is refused. */
export function checkHost(host: string, from = '--host'): string {
  const problem = hostProblem(host);
  if (problem !== null) throw new UsageError(`${from} ${JSON.stringify(host)}: refused, ${problem}`);
  return host;
}

/** `a,b , c` → the hosts, each checked; empty items are dropped, a repeated host counts once. */
export function parseHostList(text: string, from = '--hosts'): string[] {
  const hosts = text.split(',').map((h) => h.trim()).filter((h) => h !== '');
  return [...new Set(hosts.map((h) => checkHost(h, from)))];
}
