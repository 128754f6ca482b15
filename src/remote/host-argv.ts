// Which host a command line acts on: `--host H` (before the command or among its options) or
// FLEETCOM_HOST, taken out of the words that go to that host's fleetcom. Pure, so the entry
// can decide without commander: a command line without `--host` and without the variable
// costs the local path one scan of its words.
import { UsageError } from '../errors.js';
import { checkHost } from './host-name.js';

/** The commands that act on a fleet, and so on a host's fleet with --host. */
export const HOST_COMMANDS: ReadonlySet<string> = new Set([
  'ls', 'run', 'rerun', 'kill', 'rm', 'tag', 'rename', 'group', 'next', 'save', 'load', 'recover', 'doctor', 'down', 'sessions', 'up',
  'adopt', 'send', 'wait', 'output', 'events',
]);

/** Commands whose words after the first positional one are a command of their own (`run … -- cmd`). */
const VALUE_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  run: new Set(['--cwd', '--name', '--group', '--worktree', '--base', '--prompt']),
  // After the task, the words are the message.
  send: new Set(['--file', '--timeout']),
};

export interface HostArgv {
  host: string | null;
  /** The words for the host's fleetcom (or, without a host, for this one). */
  argv: string[];
}

/** Cheap test the entry makes first: could this command line name a host at all? */
export function mayNameHost(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
  return (env.FLEETCOM_HOST ?? '') !== '' || argv.some((w) => w === '--host' || w.startsWith('--host='));
}

export function splitHost(argv: readonly string[], envHost: string | undefined): HostArgv {
  let host: string | null = null;
  let command: string | null = null;
  const rest: string[] = [];
  let verbatim = false;
  let value = false;
  const take = (h: string | undefined) => {
    if (h === undefined) throw new UsageError('--host needs a host name');
    if (host !== null) throw new UsageError('--host is given twice');
    host = checkHost(h);
  };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (verbatim || value) {
      value = false;
      rest.push(word);
      continue;
    }
    if (word === '--') {
      verbatim = true;
      rest.push(word);
      continue;
    }
    if (word === '--host') {
      take(argv[++i]);
      continue;
    }
    if (word.startsWith('--host=')) {
      take(word.slice('--host='.length));
      continue;
    }
    if (command === null && !word.startsWith('-')) command = word;
    else if (command !== null && VALUE_OPTIONS[command] !== undefined) {
      if (VALUE_OPTIONS[command]?.has(word)) value = true;
      else if (!word.startsWith('-')) verbatim = true;
    }
    rest.push(word);
  }
  if (host === null) {
    if (envHost === undefined || envHost === '' || command === null || !HOST_COMMANDS.has(command)) return { host: null, argv: rest };
    return { host: checkHost(envHost, 'FLEETCOM_HOST'), argv: rest };
  }
  if (command !== null && !HOST_COMMANDS.has(command)) {
    throw new UsageError(`${command} runs on this machine; --host applies to ${[...HOST_COMMANDS].join(', ')}`);
  }
  return { host, argv: rest };
}
