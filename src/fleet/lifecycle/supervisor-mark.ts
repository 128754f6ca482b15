// Which live process supervises the tasks of a control socket, kept on the tmux server itself
// in a server option `@fleetcom-supervisor-<hash of the socket path>`: `<pid> <start> <socket>`.
// The lock in the runtime dir says the same, but a tmp cleaner or systemd's removal of
// /run/user/<uid> at logout takes the lock with the dir, while tmux (and the supervisor in it)
// lives on; a new `up` then found no lock and adopted every task of the live supervisor. The
// server option survives that: an `up` reads it with its other start-up queries and refuses
// the tasks of a supervisor that is alive. Per socket path, so two fleets with different
// runtime dirs still share a server.
import { fnv1a64 } from '../../paths.js';
import { serverOptionQuery, showServerOption, unsetServerOption } from '../../tmux/options.js';
import type { Query } from '../../tmux/queries.js';
import type { TmuxRun } from '../../tmux/runner.js';
import { identityOf, liveOther, type ProcessIdentity } from './process-identity.js';

export interface SupervisorMark {
  pid: number;
  /** The process's start time (/proc stat field 22); null where there is no /proc. */
  start: string | null;
  socket: string;
}

export function markOption(socket: string): string {
  return `@fleetcom-supervisor-${fnv1a64(socket)}`;
}

/** The option's read, to run with the other start-up queries. */
export function markQuery(socket: string): Query<string | null> {
  return serverOptionQuery(markOption(socket));
}

/** The command that marks `me` as the supervisor of `socket`. */
export function markCommand(socket: string, me: ProcessIdentity): string[] {
  return ['set-option', '-s', markOption(socket), `${me.pid} ${me.start ?? '-'} ${socket}`];
}

/** The option's value read back (anyone can set a server option): null unless it is whole and names this very socket. */
export function parseMark(text: string | null, socket: string): SupervisorMark | null {
  const m = text === null ? null : /^([1-9]\d{0,9}) (\d+|-) (.+)$/s.exec(text);
  if (m === null || m[3] !== socket) return null;
  return { pid: Number(m[1]), start: m[2] === '-' ? null : (m[2] ?? null), socket };
}

/**
 * The live supervisor the mark names, other than this process: null when there is no mark, or
 * its pid is gone or now another process's (its start time differs).
 */
export function liveSupervisor(mark: SupervisorMark | null, identify = identityOf): ProcessIdentity | null {
  return mark === null ? null : liveOther(mark, identify);
}

/** `down`: the mark goes, if it still names this process (a newer supervisor's is left). */
export async function clearMark(tmux: TmuxRun, socket: string): Promise<void> {
  const mark = parseMark(await showServerOption(tmux, markOption(socket)), socket);
  if (mark?.pid === process.pid) await unsetServerOption(tmux, markOption(socket));
}
