import { databaseHome } from '../opencode/database-home.js';
import { opencodeFamily } from '../opencode/family.js';

// Kilo CLI, an opencode fork (measured on 7.7.7): opencode's plugin events, session ids,
// session table and `-s <id>` resume, under its own names. fleetcom's opencode plugin goes in
// through KILO_CONFIG_CONTENT (merged over the user's config, as opencode's); the exit hint is
// `kilo -s <id>` inside its logo, under the session's title; the store is `kilo.db`.

/**
 * KILO_DB (absolute, or a file name in the data folder), else `$XDG_DATA_HOME/kilo/kilo.db`,
 * else `$HOME/.local/share/kilo/kilo.db` (read from its 7.7.7 binary: the `latest` channel's
 * name; other channels write `kilo-<channel>.db`).
 */
export const kiloHome = databaseHome({ name: 'kilo', dbVar: 'KILO_DB', dir: 'kilo', file: 'kilo.db', relativeInData: true });

export const kilo = opencodeFamily({ name: 'kilo', home: kiloHome, configVar: 'KILO_CONFIG_CONTENT' });
