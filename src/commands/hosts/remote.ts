// `fleetcom --host H <command> …`: the command runs on host H by H's own fleetcom, over the
// user's ssh, with the same words (quoted for H's shell), and its output and exit code come
// back as they are: a command acts on H's fleet exactly as it does on this machine's there
// (paths, HOME, the saved sessions and the environment of tasks are H's).
import type { Deps } from '../../deps.js';
import { FleetError, UsageError } from '../../errors.js';
import { callHost } from '../../remote/host-link.js';
import { describeFailure } from '../../remote/outcome.js';
import { canPrompt, hostSettings } from './host-link-of.js';
import { readStdinText, STDIN_SESSION } from '../fleet/recipe-io.js';
import { messageOf } from '../orchestration/send.js';

/** `send … --file F`: the words with `-` for the file, and its text (read here); null without --file. */
async function localFile(argv: readonly string[], deps: Deps): Promise<{ argv: string[]; text: string } | null> {
  const at = argv.findIndex((w) => w === '--file' || w.startsWith('--file='));
  if (at < 0 || argv.slice(0, at).includes('--')) return null;
  const word = argv[at] as string;
  const file = word === '--file' ? argv[at + 1] : word.slice('--file='.length);
  if (file === undefined) return null;
  const text = await messageOf([], file, deps);
  return { argv: [...argv.slice(0, at), ...argv.slice(at + (word === '--file' ? 2 : 1)), '-'], text };
}

export async function runOnHost(host: string, words: readonly string[], deps: Deps): Promise<number> {
  let argv = words;
  if (argv[0] === 'up' && !argv.includes('--detach') && !argv.includes('--help')) {
    throw new UsageError('up on a host needs --detach (it starts the fleet in a tmux session there; attach with: ssh -t HOST tmux attach)');
  }
  const { link, timeoutMs } = hostSettings(deps);
  // `send --file F` names a file here: its text goes to the host's `send -` on stdin.
  const file = argv[0] === 'send' ? await localFile(argv, deps) : null;
  if (file !== null) argv = file.argv;
  // `load -`, `doctor -` and `send -` read stdin: it goes to the host's fleetcom.
  const input = file !== null ? file.text : argv.includes(STDIN_SESSION) ? await readStdinText() : undefined;
  const { run, failure } = await callHost(link, host, argv, {
    deadlineMs: null,
    batch: !canPrompt(),
    connectTimeoutSeconds: timeoutMs / 1000,
    input,
    onStdout: (text) => deps.stdout.write(text),
    onStderr: (text) => deps.stderr.write(text),
  });
  if (failure !== null) throw new FleetError(describeFailure(failure));
  return run.code ?? 1;
}
