// Reading the dashboard as a user sees it: the pane's visible screen (the dashboard draws on
// the alternate screen: no history), waited for until it shows what a test expects.
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

export const screen = (sb: Sandbox, pane: string) => sb.ops.capturePane(pane, { history: false });

// 45 s: a screen often waits on an action the supervisor runs (a load, an adoption) and then a
// redraw; on a loaded 2-core machine beside the real-client suite that took over 20 s once.
export function waitForScreen(sb: Sandbox, pane: string, needle: RegExp, what: string, timeout = 45_000): Promise<string> {
  return waitFor(async () => {
    const text = await screen(sb, pane);
    return needle.test(text) ? text : false;
  }, { what: `the dashboard to show ${what} (${String(needle)})`, timeout }).catch(async (e: Error) => {
    throw new Error(`${e.message}\n--- dashboard ---\n${await screen(sb, pane).catch(() => '(gone)')}`);
  });
}

/** The window tmux shows in the session now. */
export const activeWindow = async (sb: Sandbox, session: string) =>
  (await sb.tmux('list-windows', '-t', session, '-F', '#{window_active} #{window_id}')).split('\n').find((l) => l.startsWith('1 '))?.slice(2);
