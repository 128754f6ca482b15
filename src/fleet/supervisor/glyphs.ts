// The marks a task's state shows as: in its window name, on the dashboard and in `fleetcom ls`.
// One table, so the three agree and a window name read back loses exactly the mark it was given.
// Type-only imports: `ls` loads this without the fleet's code.
import type { Attention } from '../../harness/index.js';

/** What a task is doing, as taskState (task.ts) tells it from its record and the clock. */
export type TaskState = 'running' | 'idle' | 'exited';

export const STATE_GLYPHS = { running: '✻', idle: '∙', succeeded: '✓', failed: '✗' } as const;

/** A running agent's own signal says more than idle: waiting for the user or for a permission. */
export const ATTENTION_GLYPHS: Readonly<Record<Attention, string>> = { working: '✻', waiting: '❯', permission: '⚑' };

export const TAGGED_GLYPH = '◆';

/** An exited task shows how it ended; a running one its attention when it has one, else running or idle. */
export function glyphFor(state: TaskState, exitStatus: number | null, attention: Attention | null = null): string {
  if (state === 'exited') return exitStatus === 0 ? STATE_GLYPHS.succeeded : STATE_GLYPHS.failed;
  if (attention !== null) return ATTENTION_GLYPHS[attention];
  return STATE_GLYPHS[state];
}

const EVERY_GLYPH = [...new Set([...Object.values(STATE_GLYPHS), ...Object.values(ATTENTION_GLYPHS), TAGGED_GLYPH])].join('');

/** A window name's leading mark and its space, as windowName writes them. */
export const LEADING_GLYPH = new RegExp(`^[${EVERY_GLYPH}] `, 'u');
