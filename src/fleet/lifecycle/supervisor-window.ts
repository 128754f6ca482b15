// The supervisor's own tmux window is called `fleetcom` while the fleet is up: the status line
// would otherwise show `node`, which says nothing about what runs there. The name it had before
// (and whether tmux named it automatically) is kept in a window option rather than in memory,
// so `down` after a crashed supervisor and a new `up` still puts back the user's name, not
// `fleetcom`.
import * as z from 'zod';
import { textQuery, type Query } from '../../tmux/queries.js';
import type { TmuxRun } from '../../tmux/runner.js';
import { renameCommand, renameWindow } from '../../tmux/windows.js';
import { setWindowOption, showLocalWindowOption, unsetWindowOption } from '../../tmux/options.js';

export const SUPERVISOR_WINDOW_NAME = 'fleetcom';
const PREVIOUS = '@fleetcom-previous-name';

// `automatic`: the window's own automatic-rename value before the rename (null: it had none
// and followed the global one), which rename-window turns off for this window.
const Previous = z.object({ name: z.string(), automatic: z.enum(['on', 'off']).nullable() }).strict();
type Previous = z.infer<typeof Previous>;

/** What naming the supervisor's window needs to know, read with the other start-up queries. */
export function supervisorWindowQueries(pane: string): [kept: Query<string>, name: Query<string>, automatic: Query<string>] {
  return [
    textQuery(['show-options', '-w', '-q', '-v', '-t', pane, PREVIOUS]),
    textQuery(['display-message', '-p', '-t', pane, '#{window_name}']),
    textQuery(['show-options', '-w', '-q', '-v', '-t', pane, 'automatic-rename']),
  ];
}

/**
 * Names the window holding `pane` `fleetcom`, keeping its previous name unless one is kept
 * already (`kept`, the option's text; supervisorWindowQueries read all three).
 */
export async function nameSupervisorWindow(tmux: TmuxRun, pane: string, read: { kept: string; name: string; automatic: string }): Promise<void> {
  const keep: string[][] = [];
  if (parsePrevious(read.kept) === null) {
    const previous: Previous = { name: read.name, automatic: read.automatic === 'on' || read.automatic === 'off' ? read.automatic : null };
    keep.push(['set-option', '-w', '-t', pane, PREVIOUS, JSON.stringify(previous)]);
  }
  await tmux.runSequence([...keep, renameCommand(pane, SUPERVISOR_WINDOW_NAME)]);
}

/** Puts back the name (and automatic renaming) the window had before `up`. */
export async function restoreSupervisorWindow(tmux: TmuxRun, pane: string): Promise<void> {
  const previous = await readPrevious(tmux, pane);
  if (previous === null) return;
  await renameWindow(tmux, pane, previous.name);
  if (previous.automatic === null) await unsetWindowOption(tmux, pane, 'automatic-rename');
  else await setWindowOption(tmux, pane, 'automatic-rename', previous.automatic);
  await unsetWindowOption(tmux, pane, PREVIOUS);
}

/** The kept name; null when there is none or it is not ours (a user can set any option). */
async function readPrevious(tmux: TmuxRun, pane: string): Promise<Previous | null> {
  return parsePrevious(await showLocalWindowOption(tmux, pane, PREVIOUS));
}

function parsePrevious(text: string): Previous | null {
  if (text === '') return null;
  try {
    const parsed = Previous.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
