// The dashboard's visible screen (it draws on the alternate screen: no history), and waiting
// until it shows something, with the screen in the error when it never does.
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

export const screen = (sb: Sandbox, pane: string) => sb.ops.capturePane(pane, { history: false });

export function waitForScreen(sb: Sandbox, pane: string, needle: RegExp, what: string): Promise<string> {
  return waitFor(async () => {
    const text = await screen(sb, pane);
    return needle.test(text) ? text : false;
  }, { what: `the dashboard to show ${what} (${String(needle)})` }).catch(async (e: Error) => {
    throw new Error(`${e.message}\n--- dashboard ---\n${await screen(sb, pane).catch(() => '(gone)')}`);
  });
}
