// Typed errors of the session store. Each carries the process exit code the CLI maps it to
// (product.md §2: 1 failure, 2 usage), so `main` can keep one catch.

/** Base of every error raised by src/sessions. */
export class SessionError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** A session name or argument the user got wrong (empty name): exit 2. */
export class SessionUsageError extends SessionError {
  constructor(message: string) {
    super(message, 2);
  }
}

/**
 * A session file that cannot be used as a whole: unreadable, bad JSON, wrong shapes, or a
 * future version. `where` is the location inside the file (`line 3, column 7`,
 * `dirs["/w"][2].cmd`), or null when the problem is the file itself.
 */
export class RecipeError extends SessionError {
  readonly file: string;
  readonly where: string | null;

  constructor(file: string, where: string | null, problem: string, options?: ErrorOptions) {
    super(where === null ? `${file}: ${problem}` : `${file}: ${where}: ${problem}`, 1, options);
    this.file = file;
    this.where = where;
  }
}

/** The session file does not exist (a name never saved, a mistyped path). */
export class RecipeNotFoundError extends RecipeError {
  constructor(file: string, options?: ErrorOptions) {
    super(file, null, 'no such file', options);
  }
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
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}
