import * as path from 'node:path';
import type { HomeRule } from '../harness.js';

// Where opencode and its forks keep their database: a variable naming the file, else
// `$XDG_DATA_HOME/<dir>/<file>`, else `$HOME/.local/share/<dir>/<file>`. A recipe keeps
// XDG_DATA_HOME when the file sits where that variable puts it, else the file's variable, and
// neither when it is HOME's default.

export interface DatabasePlace {
  name: string;
  /** The variable naming the database file (OPENCODE_DB, KILO_DB). */
  dbVar: string;
  /** The folder under the data directory, and the file in it. */
  dir: string;
  file: string;
  /** Whether a relative value of `dbVar` names a file in `$XDG_DATA_HOME/<dir>` (Kilo) rather than itself. */
  relativeInData: boolean;
}

export function databaseHome({ name, dbVar, dir, file, relativeInData }: DatabasePlace): HomeRule {
  const tail = path.join(dir, file);
  const dataDir = (env: Readonly<Record<string, string | undefined>>): string => {
    const data = env.XDG_DATA_HOME;
    if (data !== undefined && data.startsWith('/')) return data;
    const home = env.HOME;
    if (home === undefined || home === '') throw new Error(`cannot resolve the ${name} database: neither ${dbVar}, XDG_DATA_HOME nor HOME is set`);
    return path.join(home, '.local', 'share');
  };
  return {
    vars: [dbVar, 'XDG_DATA_HOME'],
    resolve(env) {
      const db = env[dbVar];
      if (db !== undefined && db !== '') {
        // `:memory:` keeps no file: the name stands as it is, and reads of it find nothing.
        if (!relativeInData || path.isAbsolute(db) || db === ':memory:') return db;
        return path.join(dataDir(env), dir, db);
      }
      return path.join(dataDir(env), tail);
    },
    varsFor(db): Record<string, string> {
      return db.endsWith(`/${tail}`) ? { XDG_DATA_HOME: path.dirname(path.dirname(db)) } : { [dbVar]: db };
    },
    defaults(userHome) {
      const data = path.join(userHome, '.local', 'share');
      return { XDG_DATA_HOME: data, [dbVar]: path.join(data, tail) };
    },
  };
}
