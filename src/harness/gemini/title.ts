// What gemini's terminal title says. gemini-cli sets it (OSC 0, `ui.dynamicWindowTitle`, on by
// default) to its state: measured on 0.61.0, `◇  Ready (<folder>)` at its prompt, `✦  Working…
// (<folder>)` (or the model's thought) during a turn, `✋  Action Required (<folder>)` while a
// tool waits for confirmation, each padded to 80 columns. gemini runs no hook fleetcom can add
// to one launch (clients/README.md), so the title is its attention. A title turned off or
// fixed (`ui.hideWindowTitle`, `ui.dynamicWindowTitle: false`) matches none of these: no attention.
import type { TitleReading } from '../attention.js';

const TITLE_MAX = 200;

export function geminiTitle(title: string): TitleReading | null {
  if (title.length > TITLE_MAX) return null;
  if (title.startsWith('\u270b  Action Required')) return 'permission';
  if (title.startsWith('\u2726  ') || title.startsWith('\u23f2  Working')) return 'working';
  if (title.startsWith('\u25c7  Ready')) return 'idle';
  return null;
}
