// Typed tmux errors, on the one error base with exit code 1 (tmux missing or failing is a
// failure), so the CLI's single catch maps them without knowing tmux.
import { FleetError } from '../errors.js';

/** A tmux command ran and failed; names the subcommand(s) and tmux's own stderr. */
export class TmuxError extends FleetError {
  /** `new-window`, or `new-window; set-option` for a sequence. */
  readonly subcommand: string;
  /** tmux's stderr, trimmed (may be empty). */
  readonly stderr: string;
  /** tmux's own exit status (usually 1), or null when it was killed by a signal. */
  readonly tmuxExitCode: number | null;
  /** What the commands before the failing one printed (a sequence stops at the first error). */
  readonly stdout: string;

  constructor(subcommand: string, stderr: string, tmuxExitCode: number | null, stdout = '') {
    const detail = stderr.trim() === '' ? `exited with status ${tmuxExitCode ?? 'unknown'}` : stderr.trim();
    super(`tmux ${subcommand} failed: ${detail}`);
    this.subcommand = subcommand;
    this.stderr = stderr.trim();
    this.tmuxExitCode = tmuxExitCode;
    this.stdout = stdout;
  }

  /** True when no server answers on the socket (nothing to query, nothing to kill). */
  get noServer(): boolean {
    return /no server running|error connecting to|server exited unexpectedly/i.test(this.stderr);
  }
}

/** The `tmux` executable is not on PATH. */
export class TmuxMissingError extends FleetError {
  constructor() {
    super('tmux not found — install tmux 3.2 or newer');
  }
}

/** `tmux -V` reports a version older than fleetcom supports. */
export class TmuxTooOldError extends FleetError {
  readonly found: string;
  constructor(found: string, minimum: string) {
    super(`${found} is too old — fleetcom needs tmux ${minimum} or newer`);
    this.found = found;
  }
}
