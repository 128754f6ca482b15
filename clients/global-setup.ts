// Refuses to run the suite outside a private network namespace (the real clients try the
// network; here they must reach nothing but loopback) or without the installed clients.
import { readFileSync } from 'node:fs';
import { assertInstalled } from './helpers/clients.js';

export default function setup(): void {
  // /proc/net/dev is this process's network namespace (/sys/class/net is the mounter's).
  const interfaces = readFileSync('/proc/net/dev', 'utf8')
    .split('\n')
    .slice(2)
    .map((line) => line.split(':')[0]?.trim() ?? '')
    .filter((name) => name !== '');
  const outside = interfaces.filter((name) => name !== 'lo');
  if (outside.length > 0) {
    throw new Error(
      `the real-client suite runs only in a private network namespace, but this one has ${outside.join(', ')}: ` +
        'run it with `npm run test:clients` (clients/run.mjs), not vitest directly',
    );
  }
  assertInstalled();
}
