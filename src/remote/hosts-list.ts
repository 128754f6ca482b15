// Which hosts a command asks: `--hosts a,b` when given, else the configured `hosts`.
import { UsageError } from '../errors.js';
import { parseHostList } from './host-name.js';

export function chosenHosts(flag: string | undefined, configured: readonly string[]): string[] {
  const hosts = flag === undefined ? [...configured] : parseHostList(flag);
  if (hosts.length === 0) {
    throw new UsageError(flag === undefined ? 'no hosts are configured: add them to "hosts" in config.json (fleetcom config shows where) or name them with --hosts a,b' : '--hosts names no host');
  }
  return hosts;
}
