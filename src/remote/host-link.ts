// Calling the fleetcom of a host over the user's own OpenSSH. Every call to a host shares one
// master connection (ControlMaster=auto with ControlPersist: the first call makes it, with the
// user's prompts on their terminal unless BatchMode), whose socket lives in fleetcom's own
// control dir. Before a call, an existing master is checked with `ssh -O check` under a short
// deadline: a dead one (its socket refused) is removed, a stopped or wedged one is killed, and
// the call then makes a fresh master instead of hanging on the old (a stale control socket
// that hangs every call is the failure peers shipped). Calls to one host from this process
// hold at most MAX_SESSIONS_PER_HOST sessions of the master at once, below sshd's default
// MaxSessions (10), however many tasks that host runs: a command makes one call per host.
//
// The transport is the remote fleetcom CLI with quoted words (remote-words.ts), not the remote
// control socket forwarded here: measured on this 2-core machine under load, an `ls` through a
// forwarded socket took ~3 ms against ~250 ms for the remote CLI, but the remote CLI is the one
// that knows the host's own runtime dir, HOME, environment (a task must run with the remote
// PATH, not this machine's) and makes the host's own trust checks of its socket; a forwarded
// socket would skip all of them. docs/hosts.md has the numbers.
import { checkHost } from './host-name.js';
import { controlPath, ensureControlDir, isSocket, removeSocket, replaceWedgedMaster } from './control-socket.js';
import { failureOf, type HostFailure } from './outcome.js';
import { remoteCommandLine } from './remote-words.js';
import { runSsh, type SshRun } from './ssh-process.js';

export interface HostLink {
  /** The ssh program and its options, as the user set them (config `sshCommand`). */
  sshCommand: readonly string[];
  /** How the host's shell starts fleetcom (config `remoteCommand`). */
  remoteCommand: readonly string[];
  runtimeDir: string;
  controlDir: string;
}

export interface CallOptions {
  /** The whole call's deadline in ms (master check included); null: none (an interactive command). */
  deadlineMs: number | null;
  /** No prompts: ssh fails at once, with its reason, where it would ask (BatchMode). */
  batch: boolean;
  /** ssh's ConnectTimeout: how long reaching the host may take (default: the deadline's, else ssh's own). */
  connectTimeoutSeconds?: number;
  input?: string;
  onStdout?: (text: string) => void;
  onStderr?: (text: string) => void;
}

export interface HostCall {
  run: SshRun;
  /** Null when the remote fleetcom answered (whatever its exit code). */
  failure: HostFailure | null;
}

export const MAX_SESSIONS_PER_HOST = 8;
/** How long a master outlives its last call. */
export const CONTROL_PERSIST_SECONDS = 600;
/** `ssh -O check` is a local round trip to the master: a master that takes longer is wedged. */
export const MASTER_CHECK_MS = 1500;

const active = new Map<string, number>();
const waiting = new Map<string, Array<() => void>>();

async function session<T>(host: string, run: () => Promise<T>): Promise<T> {
  if ((active.get(host) ?? 0) >= MAX_SESSIONS_PER_HOST) {
    await new Promise<void>((resolve) => waiting.set(host, [...(waiting.get(host) ?? []), resolve]));
  }
  active.set(host, (active.get(host) ?? 0) + 1);
  try {
    return await run();
  } finally {
    active.set(host, (active.get(host) ?? 1) - 1);
    const [next, ...rest] = waiting.get(host) ?? [];
    waiting.set(host, rest);
    next?.();
  }
}

/** The options every ssh of this host gets, after the user's own (ssh keeps the first value it sees of an option). */
export function sshArgv(link: HostLink, host: string, extra: readonly string[]): string[] {
  return [...link.sshCommand, '-o', `ControlPath=${controlPath(link.controlDir, host)}`, ...extra];
}

/**
 * What became of the host's master: `none` (no socket), `alive`, `stale` (its socket was
 * refused: removed) or `wedged` (it did not answer the check in time: killed and removed).
 */
export async function checkMaster(link: HostLink, host: string, deadlineMs: number = MASTER_CHECK_MS): Promise<'none' | 'alive' | 'stale' | 'wedged'> {
  const socket = controlPath(link.controlDir, host);
  if (!isSocket(socket)) return 'none';
  const check = await runSsh([...sshArgv(link, host, ['-O', 'check']), '--', host], { deadlineMs });
  if (check.code === 0) return 'alive';
  if (check.timedOut) {
    replaceWedgedMaster(socket);
    return 'wedged';
  }
  removeSocket(socket);
  return 'stale';
}

function connectTimeout(opts: CallOptions, left: number | null): string[] {
  const seconds = opts.connectTimeoutSeconds ?? (left === null ? null : left / 1000);
  return seconds === null ? [] : ['-o', `ConnectTimeout=${Math.max(1, Math.ceil(seconds))}`];
}

/** Runs `fleetcom <words>` on `host`. Throws only for a refused host or an unsafe control dir. */
export async function callHost(link: HostLink, host: string, words: readonly string[], opts: CallOptions): Promise<HostCall> {
  checkHost(host);
  ensureControlDir(link.runtimeDir, link.controlDir);
  const started = Date.now();
  return session(host, async () => {
    await checkMaster(link, host, opts.deadlineMs === null ? MASTER_CHECK_MS : Math.min(MASTER_CHECK_MS, opts.deadlineMs));
    const left = opts.deadlineMs === null ? null : Math.max(1, opts.deadlineMs - (Date.now() - started));
    const options = [
      '-o', 'ControlMaster=auto', '-o', `ControlPersist=${CONTROL_PERSIST_SECONDS}`,
      // A master whose host went away ends within ~30 s instead of holding a dead connection.
      '-o', 'ServerAliveInterval=10', '-o', 'ServerAliveCountMax=3',
      ...(opts.batch ? ['-o', 'BatchMode=yes'] : []),
      ...connectTimeout(opts, left),
    ];
    const argv = [...sshArgv(link, host, options), '--', host, remoteCommandLine(link.remoteCommand, words)];
    const run = await runSsh(argv, { deadlineMs: left, input: opts.input, onStdout: opts.onStdout, onStderr: opts.onStderr });
    const failure = failureOf(host, run, { deadlineMs: opts.deadlineMs, remoteProgram: link.remoteCommand[0] ?? 'fleetcom' });
    return { run, failure };
  });
}
