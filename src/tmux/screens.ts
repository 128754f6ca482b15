// What the dashboard asks of tmux: many panes' screens in one call, a popup, window switching.
import { batches, commandBytes } from './batch.js';
import { TmuxError } from './errors.js';
import { tidyCapture } from './panes.js';
import type { TmuxRun } from './runner.js';

/** A line display-message prints between two captures (a pane showing it only garbles a preview). */
const SEPARATOR = '\u241e fleetcom capture separator \u241e';

/**
 * The visible screens of several panes, each with the last `history` lines above it (a pane
 * made smaller pushes its top lines there), in as few tmux invocations as fit (batch.ts), so a
 * refresh costs one process for the rows a screen shows. A pane that is gone makes tmux stop
 * the sequence: then that batch's panes are captured alone and a missing one maps to null.
 */
export async function capturePanes(tmux: TmuxRun, paneIds: readonly string[], history = 0): Promise<Map<string, string | null>> {
  const screens = new Map<string, string | null>();
  const capture = (id: string) => ['capture-pane', '-p', '-J', ...(history > 0 ? ['-S', String(-history)] : []), '-t', id];
  const separate = ['display-message', '-p', SEPARATOR];
  for (const batch of batches(paneIds, (id) => commandBytes([separate, capture(id)]))) {
    const commands = batch.flatMap((id, i) => [...(i > 0 ? [separate] : []), capture(id)]);
    try {
      const parts = (await tmux.runSequence(commands)).split(`\n${SEPARATOR}\n`);
      if (parts.length === batch.length) {
        batch.forEach((id, i) => screens.set(id, tidyCapture(parts[i] ?? '')));
        continue;
      }
    } catch (e) {
      if (!(e instanceof TmuxError)) throw e;
    }
    for (const id of batch) {
      screens.set(id, await tmux.runSequence([capture(id)]).then(tidyCapture, () => null));
    }
  }
  return screens;
}

export interface PopupSpec {
  /** The pane the popup is shown over (its client's terminal). */
  target: string;
  width: number;
  height: number;
  title: string;
  /** A shell command string, run by tmux's default-shell in the SERVER's environment. */
  command: string;
}

/** `display-popup -E`: closes when the command exits. Needs a client attached to the session. */
export async function displayPopup(tmux: TmuxRun, spec: PopupSpec): Promise<void> {
  await tmux.runSequence([[
    'display-popup', '-E', '-t', spec.target, '-w', String(spec.width), '-h', String(spec.height),
    '-T', spec.title.replaceAll('#', '##'), spec.command,
  ]]);
}

/** `last-window -t <session>`: back to the session's previously current window. */
export async function lastWindow(tmux: TmuxRun, session: string): Promise<void> {
  await tmux.runSequence([['last-window', '-t', session]]);
}
