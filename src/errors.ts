// One error base carrying its exit code (1 failure, 2 usage, 3 no fleet: scripts branch on
// them), and how a failed file-system call reads in a message.

/**
 * Marks a FleetError for `isFleetError`: the build makes some commands files of their own
 * (scripts/bundle.mjs), each with its own copy of these classes, so an error thrown by one
 * part and reported by another fails `instanceof`; the symbol is the same in every copy.
 */
const FLEET_ERROR = Symbol.for('fleetcom.FleetError');
const REPORTED = Symbol.for('fleetcom.ReportedError');

/** Every error fleetcom raises on purpose; the CLI prints its message and exits with its code. */
export class FleetError extends Error {
  readonly [FLEET_ERROR] = true;

  constructor(
    message: string,
    readonly exitCode: number = 1,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class UsageError extends FleetError {
  constructor(message: string) {
    super(message, 2);
  }
}

export class NoFleetError extends FleetError {
  constructor() {
    super('no fleet is running (start one with: fleetcom up)', 3);
  }
}

/** The error was already shown to the user; only its exit code matters. */
export class ReportedError extends FleetError {
  readonly [REPORTED] = true;
}

/** A FleetError of any copy of this file (FLEET_ERROR says why). */
export function isFleetError(error: unknown): error is FleetError {
  return error instanceof FleetError || marked(error, FLEET_ERROR);
}

/** A ReportedError of any copy of this file. */
export function isReported(error: unknown): error is ReportedError {
  return error instanceof ReportedError || marked(error, REPORTED);
}

function marked(error: unknown, mark: symbol): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[mark] === true;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const FS_PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
  ENOTEMPTY: 'a directory is in the way',
  EEXIST: 'already exists',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'too many symbolic links',
};

/** A short human reason for a failed fs call, without the temp paths Node puts in messages. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string' && code !== '') return `${FS_PROBLEMS[code] ?? 'failed'} (${code})`;
  // Node 24's rmSync throws some errors with an empty code and a message like
  // ", Unknown error: Read-only file system '<path>'": the message is all there is to say.
  return error instanceof Error ? error.message.replace(/^[,\s]+/, '') : String(error);
}

export function isNotFound(error: unknown): boolean {
  return errnoCode(error) === 'ENOENT';
}

/** The `code` of a failed system call (ENOENT, EEXIST …), or undefined for any other error. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}
