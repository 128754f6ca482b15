// What codex's terminal title says. Measured on 0.171.0 (clients/README.md): codex sets the
// pane title (OSC 0) to `<spinner> <prompt> | <project>` while it works, blinks `[ ! ] Action
// Required | …` / `[ . ] Action Required | …` while an approval prompt waits, and drops the
// spinner when idle. No notify payload, rollout line or hook that runs untrusted says the
// prompt is up, so the title is the one channel that does. A user's own `tui.terminal_title`
// setting changes the title: then nothing here matches and attention keeps to the notifier.
import type { TitleReading } from '../attention.js';

const ACTION_REQUIRED = /^\[ [!.] \] Action Required(?: \||$)/;
/** One braille cell then a space: the spinner codex draws while a turn runs. */
const SPINNER = /^[\u2800-\u28ff] /u;
/** Longest title read: codex's is a prompt and a folder; a longer one is not its own. */
const TITLE_MAX = 1_000;

export function codexTitle(title: string): TitleReading | null {
  if (title === '' || title.length > TITLE_MAX) return null;
  if (ACTION_REQUIRED.test(title)) return 'permission';
  return SPINNER.test(title) ? 'working' : 'idle';
}
