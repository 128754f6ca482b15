// The exit hints an adopted pane already showed. A shell pane keeps what earlier agents
// printed in it: a claude that exited an hour ago left `claude --resume <its id>` in the
// scrollback, and the agent adopted now may exit without a hint (no message sent). The last
// hint in the text would then be that earlier conversation. So the hints the text held at
// adoption are counted, and at the end only a hint beyond them counts: a new id, or an id
// printed once more than before (an agent resumed into that same conversation).
import { plainText, scrapeExit, type HarnessName } from '../../harness/index.js';
import type { Followed } from '../supervisor/task-record.js';

/** The most ids kept: a pane's scrollback rarely holds more; beyond, ids not kept count as old. */
export const HINT_IDS_KEPT = 50;

/** Each line's hint, in the order they appear. */
function lineHints(harness: HarnessName, text: string): string[] {
  const hints: string[] = [];
  for (const line of plainText(text).split('\n')) {
    const id = scrapeExit(harness, line);
    if (id !== null) hints.push(id);
  }
  return hints;
}

/** How often each id was hinted in `text`, the newest `HINT_IDS_KEPT` ids (capped: more were seen). */
export function hintsIn(harness: HarnessName, text: string): Pick<Followed, 'hintsBefore' | 'capped'> {
  const counts = new Map<string, number>();
  for (const id of lineHints(harness, text)) {
    const count = (counts.get(id) ?? 0) + 1;
    counts.delete(id); // re-inserted last: the map's order is that of the latest appearance
    counts.set(id, count);
  }
  const entries = [...counts];
  const kept = entries.slice(-HINT_IDS_KEPT);
  return { hintsBefore: Object.fromEntries(kept), capped: kept.length < entries.length };
}

/** The last hint of `text` that is beyond those the pane held at adoption, or null. */
export function freshHint(harness: HarnessName, text: string, before: Pick<Followed, 'hintsBefore' | 'capped'>): string | null {
  const seen = new Map<string, number>();
  let fresh: string | null = null;
  for (const id of lineHints(harness, text)) {
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    const old = Object.hasOwn(before.hintsBefore, id) ? (before.hintsBefore[id] ?? 0) : null;
    if (old === null ? !before.capped : count > old) fresh = id;
  }
  return fresh;
}
