// The supervisor's own tmux window is called `fleetcom` while the fleet is up: the status line
// would otherwise show `node`, which says nothing about what runs there. The name it had before
// (and whether tmux named it automatically) is kept in a window option rather than in memory,
// so `down` after a crashed supervisor and a new `up` still puts back the user's name, not
// `fleetcom`.
import * as z from 'zod';
import type { TmuxRun } from '../tmux/runner.js';
import { renameWindow } from '../tmux/windows.js';
import { displayMessage } from '../tmux/sessions.js';
import { setWindowOption, showLocalWindowOption, unsetWindowOption } from '../tmux/options.js';

export const SUPERVISOR_WINDOW_NAME = 'fleetcom';
const PREVIOUS = '@fleetcom-previous-name';

// `automatic`: the window's own automatic-rename value before the rename (null: it had none
// and followed the global one), which rename-window turns off for this window.
const Previous = z.object({ name: z.string(), automatic: z.enum(['on', 'off']).nullable() }).strict();
type Previous = z.infer<typeof Previous>;

/** Names the window holding `pane` `fleetcom`, keeping its previous name (unless kept already). */
export async function nameSupervisorWindow(tmux: TmuxRun, pane: string): Promise<void> {
  if ((await readPrevious(tmux, pane)) === null) {
    const name = await displayMessage(tmux, pane, '#{window_name}');
    const automatic = await showLocalWindowOption(tmux, pane, 'automatic-rename');
    const previous: Previous = { name: name.replace(/\n$/, ''), automatic: automatic === 'on' || automatic === 'off' ? automatic : null };
    await setWindowOption(tmux, pane, PREVIOUS, JSON.stringify(previous));
  }
  await renameWindow(tmux, pane, SUPERVISOR_WINDOW_NAME);
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
  const text = await showLocalWindowOption(tmux, pane, PREVIOUS);
  if (text === '') return null;
  try {
    const parsed = Previous.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
