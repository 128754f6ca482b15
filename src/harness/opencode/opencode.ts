import { databaseHome } from './database-home.js';
import { opencodeFamily } from './family.js';

// opencode: the family's harness (family.ts) with its own database and inline-config variable.

export { isOpencodeId, opencodeSignal } from './family.js';

/** OPENCODE_DB, else `$XDG_DATA_HOME/opencode/opencode.db`, else `$HOME/.local/share/opencode/opencode.db`. */
export const opencodeHome = databaseHome({ name: 'opencode', dbVar: 'OPENCODE_DB', dir: 'opencode', file: 'opencode.db', relativeInData: false });

export const opencode = opencodeFamily({ name: 'opencode', home: opencodeHome, configVar: 'OPENCODE_CONFIG_CONTENT' });
