// The clients attached to the tmux server: which window each shows, when each last had the
// user's input, and its terminal. Read for the alerts (a watched window raises none; the
// terminal target writes to each client's terminal). Checked, not trusted.
//
// fleetcom's own control clients (every supervisor's, control/connection.ts) are attached too,
// to their fleet's session, and take a command every few seconds, which tmux counts as input:
// they are left out by their terminal name (CONTROL_TERM), so only a person's clients count.
import { CONTROL_TERM } from './control/connection.js';
import { formatQuery } from './format.js';
import type { TmuxRun } from './runner.js';

export interface ClientRecord {
  /** `@N`: the window the client shows (its session's current window). */
  windowId: string;
  /** ms since epoch of the client's last input (tmux: keys; at attach, the attach). */
  activityAt: number;
  /** The client's terminal device; empty for a control-mode client without one. */
  tty: string;
}

const FIELDS = ['window_id', 'client_activity', 'client_tty', 'client_termname'] as const;

/** Every attached client but fleetcom's own; a record tmux printed out of shape is left out. */
export async function listClients(tmux: TmuxRun): Promise<ClientRecord[]> {
  const query = formatQuery(FIELDS);
  const out = await tmux.runSequence([['list-clients', '-F', query.format]]);
  const clients: ClientRecord[] = [];
  for (const r of query.parse(out)) {
    const activity = Number(r.client_activity);
    if (r.client_termname === CONTROL_TERM) continue;
    if (!/^@[0-9]+$/.test(r.window_id) || !Number.isFinite(activity) || activity <= 0) continue;
    clients.push({ windowId: r.window_id, activityAt: activity * 1000, tty: r.client_tty });
  }
  return clients;
}
