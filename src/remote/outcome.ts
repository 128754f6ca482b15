// What a finished ssh call means: the remote fleetcom's own answer (its exit code, stdout and
// stderr, passed on as they are), or a failure of reaching it, named with ssh's own reason.
// Pure, so each case has a table test.
import { REMOTE_PROTOCOL_OPTION } from './remote-words.js';
import { sshReason, type SshRun } from './ssh-process.js';

export type FailureKind = 'unreachable' | 'no-answer' | 'no-fleetcom' | 'older' | 'protocol';

export interface HostFailure {
  host: string;
  kind: FailureKind;
  /** One line for the user: what happened, with ssh's (or the remote's) own words. */
  reason: string;
}

/** ssh exits 255 for its own errors; a remote command cannot make it (fleetcom exits 0–3). */
const SSH_FAILED = 255;
/** The remote shell's "command not found". */
const NOT_FOUND = 127;
/** What a remote fleetcom of another remote protocol prints (cli.ts), after `fleetcom: `. */
export const PROTOCOL_MISMATCH = 'speaks remote protocol';

export function failureOf(host: string, run: SshRun, ctx: { deadlineMs: number | null; remoteProgram: string }): HostFailure | null {
  const said = sshReason(run.stderr);
  if (run.timedOut) {
    const seconds = ((ctx.deadlineMs ?? 0) / 1000).toFixed(1).replace(/\.0$/, '');
    return { host, kind: 'no-answer', reason: `no answer within ${seconds} s${run.stderr.trim() === '' ? '' : ` (ssh: ${said})`}` };
  }
  if (run.code === SSH_FAILED || run.code === null) return { host, kind: 'unreachable', reason: said.startsWith('ssh:') ? said : `ssh: ${said}` };
  if (run.code === NOT_FOUND) {
    return {
      host, kind: 'no-fleetcom',
      reason: `${ctx.remoteProgram} was not found there (${said}); install fleetcom on ${host}, or name it with remoteCommand (FLEETCOM_REMOTE_COMMAND): a non-interactive ssh shell may not read the profile that puts it on PATH`,
    };
  }
  if (run.code === 2 && run.stderr.includes(`unknown option '${REMOTE_PROTOCOL_OPTION}'`)) {
    return { host, kind: 'older', reason: `its fleetcom is older than this one and cannot be driven from here (it does not know ${REMOTE_PROTOCOL_OPTION}); install the same fleetcom version there` };
  }
  if (run.code === 2 && run.stderr.includes(PROTOCOL_MISMATCH)) return { host, kind: 'protocol', reason: said.replace(/^fleetcom: /, '') };
  return null;
}

export function describeFailure(failure: HostFailure): string {
  return `host ${failure.host}: ${failure.reason}`;
}
