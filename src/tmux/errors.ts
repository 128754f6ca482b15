// Typed tmux errors. Each carries `exitCode = 1` (tmux missing or failing is a failure, not a
// usage error) so the CLI's single catch can map it without knowing tmux.

/** A tmux command ran and failed; names the subcommand(s) and tmux's own stderr. */
export class TmuxError extends Error {
  readonly exitCode = 1;
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
    this.name = 'TmuxError';
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
export class TmuxMissingError extends Error {
  readonly exitCode = 1;
  constructor() {
    super('tmux not found — install tmux 3.2 or newer');
    this.name = 'TmuxMissingError';
  }
}

/** `tmux -V` reports a version older than fleetcom supports. */
export class TmuxTooOldError extends Error {
  readonly exitCode = 1;
  readonly found: string;
  constructor(found: string, minimum: string) {
    super(`${found} is too old — fleetcom needs tmux ${minimum} or newer`);
    this.name = 'TmuxTooOldError';
    this.found = found;
  }
}
