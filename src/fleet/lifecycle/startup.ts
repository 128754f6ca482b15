// What the supervisor reads from tmux, and sets there, before it serves. A tmux client costs
// ~3.5 ms however little it asks, and the start asked twenty separate questions and changes
// (npm run bench, fleet start): now one call reads everything (tmux's version, its session,
// every pane and window record for adoption, the global environment for the load at start,
// the keys' previous bindings, its window's name, which live supervisor owns this socket's
// tasks), and one call makes the changes, with the window's naming beside it.
import { formatQuery } from '../../tmux/format.js';
import { globalEnvironmentQuery, keyTableQuery, listKey, windowOptionQuery } from '../../tmux/options.js';
import { panesQuery, type PaneRecord } from '../../tmux/panes.js';
import { runQueries, type Query } from '../../tmux/queries.js';
import type { TmuxRun } from '../../tmux/runner.js';
import { assertVersion, assertVersionOf } from '../../tmux/version.js';
import { keyCommands, previousBindingQuery } from '../rerun/rerun-key.js';
import { nameSupervisorWindow, supervisorWindowQueries } from './supervisor-window.js';
import { SPEC_CHARS, SPEC_OPTION } from '../spawn/window-spec.js';
import type { ProcessIdentity } from './process-identity.js';
import { markCommand, markQuery } from './supervisor-mark.js';

const HISTORY_LIMIT = '10000';

export interface StartRead {
  /** The server's `#{version}` ('' from a tmux without that format). */
  version: string;
  session: { id: string; name: string };
  /** Every pane on the server and the window records, for adoption. */
  panes: PaneRecord[];
  specs: Map<string, string>;
  /** Per key: what the server option recorded as its earlier binding (null: nothing yet). */
  recorded: Map<string, string | null>;
  /** Per key: what it runs now (null: unbound). */
  bound: Map<string, string | null>;
  /** tmux's global environment, for the first launch (null when it did not parse). */
  environment: Record<string, string> | null;
  /** The supervisor window's kept previous name (option text), its name, its automatic-rename. */
  window: { kept: string; name: string; automatic: string };
  /** The server option naming the supervisor of this socket's tasks (supervisor-mark.ts), as read. */
  mark: string | null;
}

/**
 * Everything the start needs to know, in one tmux call (TmuxTooOldError for a tmux before
 * 3.2). `keys`: the prefix keys fleetcom binds; `socket`: this fleet's control socket.
 */
export async function readStart(tmux: TmuxRun, pane: string, keys: readonly string[], socket: string): Promise<StartRead> {
  const session = formatQuery(['version', 'session_id', 'session_name'] as const);
  const sessionQuery: Query<{ version: string; session_id: string; session_name: string }> = {
    command: ['display-message', '-p', '-t', pane, session.format],
    parse: (out) => session.parseOne(out),
  };
  const [own, panes, specs, environment, table, mark, kept, name, automatic, ...recorded] = await runQueries(tmux, [
    sessionQuery, panesQuery(null), windowOptionQuery(SPEC_OPTION, SPEC_CHARS), globalEnvironmentQuery(), keyTableQuery('prefix'), markQuery(socket),
    ...supervisorWindowQueries(pane), ...keys.map(previousBindingQuery),
  ]).catch(async (error: unknown) => {
    await assertVersion(tmux); // a tmux too old for these queries is named as such
    throw error;
  });
  await assertVersionOf(tmux, own.version);
  const current = await Promise.all(keys.map((key) => boundNow(tmux, key, table)));
  return {
    version: own.version,
    session: { id: own.session_id, name: own.session_name },
    panes,
    specs,
    environment,
    recorded: new Map(keys.map((key, i) => [key, recorded[i] ?? null])),
    bound: new Map(keys.map((key, i) => [key, current[i] ?? null])),
    window: { kept, name, automatic },
    mark,
  };
}

/**
 * What `key` runs now (null: not bound), from the prefix table read with the other queries. The
 * table names keys as tmux prints them, so a key is looked up there only when written the
 * same way (letters, digits, `-`: `C-r`, `F5`); one not found is unbound only if it is a
 * single letter or digit, which tmux prints as it is. Others (`c-r`, `#`) are asked by name.
 */
async function boundNow(tmux: TmuxRun, key: string, table: ReadonlyMap<string, string>): Promise<string | null> {
  if (/^[A-Za-z0-9-]+$/.test(key)) {
    const found = table.get(key);
    if (found !== undefined) return found;
    if (/^[A-Za-z0-9]$/.test(key)) return null;
  }
  return listKey(tmux, 'prefix', key);
}

/**
 * The session's history limit, this supervisor's mark and the key bindings in one tmux call;
 * the supervisor window's name beside it, whose failure is only logged (the fleet works under
 * any window name).
 */
export async function setUpServer(
  tmux: TmuxRun,
  at: {
    pane: string; read: StartRead; keys: ReadonlyArray<readonly [key: string, binding: (previous: string | null) => string]>;
    mark: { socket: string; me: ProcessIdentity }; log: (line: string) => void;
  },
): Promise<void> {
  const bindings = at.keys.map(([key, binding]) => keyCommands(key, at.read.recorded.get(key) ?? null, at.read.bound.get(key) ?? null, binding));
  await Promise.all([
    tmux.runSequence([
      ['set-option', '-t', at.read.session.id, 'history-limit', HISTORY_LIMIT], markCommand(at.mark.socket, at.mark.me), ...bindings.flat(),
    ]),
    nameSupervisorWindow(tmux, at.pane, at.read.window).catch((e: Error) => at.log(`could not name this window: ${e.message}`)),
  ]);
}
