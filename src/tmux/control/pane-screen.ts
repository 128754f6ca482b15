// A pane's screen as terminal bytes, for a viewer's first sight of it (and after a pause), and
// keys typed into it; pure but for the two tmux calls. tmux 3.2 crashes when a pane with output
// pending for a control client dies and remain-on-exit keeps it (tmux issue 2828, fixed in
// 3.3), which every task window does: output streams (pane-streams.ts) need 3.3.
import { FleetError } from '../../errors.js';
import type { TmuxRun } from '../runner.js';

/** The pane as it is now, as bytes for a terminal: clear, its lines, the cursor placed. */
export interface PaneScreen {
  kind: 'screen';
  width: number;
  height: number;
  data: Buffer;
}

const GEOMETRY = '#{pane_width} #{pane_height} #{cursor_x} #{cursor_y} #{cursor_flag}';
/** Bytes of input per send-keys command. */
const INPUT_CHUNK = 512;

/** Whether a tmux of this `#{version}` can stream panes (see the file's comment). */
export function streamsSupported(version: string): boolean {
  const m = /(\d+)\.(\d+)/.exec(version);
  if (m === null) return true; // `master`, a build from git: newer than any release
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > 3 || (major === 3 && minor >= 3);
}

/** The pane's screen as it is now (over the connection when it is up, else a tmux client). */
export async function firstScreen(tmux: TmuxRun, paneId: string): Promise<PaneScreen> {
  const screen = screenOf(await tmux.runSequence(screenCommands(paneId)));
  if (screen === null) throw new FleetError(`tmux gave no screen for ${paneId}`);
  return screen;
}

/** Bytes typed into the pane, as they are (`send-keys -H`: each byte its own key, UTF-8 or not). */
export async function sendInput(tmux: TmuxRun, paneId: string, bytes: Buffer): Promise<void> {
  for (let at = 0; at < bytes.length; at += INPUT_CHUNK) {
    const hex = [...bytes.subarray(at, at + INPUT_CHUNK)].map((b) => b.toString(16).padStart(2, '0'));
    await tmux.runSequence([['send-keys', '-t', paneId, '-H', ...hex]]);
  }
}

export function screenCommands(paneId: string): string[][] {
  return [['display-message', '-p', '-t', paneId, GEOMETRY], ['capture-pane', '-p', '-e', '-t', paneId]];
}

/** The answer of screenCommands as terminal bytes: clear, the lines, the cursor where it is. */
export function screenOf(output: string): PaneScreen | null {
  const newline = output.indexOf('\n');
  const head = (newline < 0 ? output : output.slice(0, newline)).split(' ').map(Number);
  const lines = newline < 0 ? [] : output.slice(newline + 1).split('\n');
  const [width, height, x, y, visible] = head;
  if (head.length !== 5 || head.some((n) => !Number.isInteger(n) || n < 0)) return null;
  const text = `\x1b[0m\x1b[H\x1b[2J${lines.slice(0, height).join('\r\n')}\x1b[0m\x1b[${y! + 1};${x! + 1}H\x1b[?25${visible === 0 ? 'l' : 'h'}`;
  return { kind: 'screen', width: width!, height: height!, data: Buffer.from(text, 'utf8') };
}
