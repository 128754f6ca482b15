// Typed errors of the session store, on the one error base (1 failure, 2 usage).
import { FleetError } from '../errors.js';

/** Base of every error raised by src/sessions. */
export class SessionError extends FleetError {}

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
