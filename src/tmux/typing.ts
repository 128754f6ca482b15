// Typing into a pane as a person pastes: the text goes to tmux on stdin (`load-buffer -`, so a
// message of any size fits, where an argument would meet tmux's 16 KiB command limit) into a
// buffer named for this paste alone (buffers are server-wide: a shared name would let two
// sends swap texts), pasted into the pane by id with `-p` (bracketed-paste markers, only when
// the program in the pane asked for them: tmux knows the pane's mode), `-r` (a newline stays a
// newline; without it tmux turns each into a carriage return, which would submit line by
// line) and `-d` (the buffer goes once pasted). Load and paste are one tmux call.
import { randomBytes } from 'node:crypto';
import { TmuxError } from './errors.js';
import type { TmuxRun } from './runner.js';

/** A buffer name no other paste (of this process or any other) uses. */
export function pasteBufferName(): string {
  return `fleetcom-send-${process.pid}-${randomBytes(8).toString('hex')}`;
}

export async function pasteText(tmux: TmuxRun, paneId: string, text: string): Promise<void> {
  const buffer = pasteBufferName();
  try {
    await tmux.runSequence([['load-buffer', '-b', buffer, '-'], ['paste-buffer', '-p', '-r', '-d', '-b', buffer, '-t', paneId]], { input: text });
  } catch (error) {
    // A paste that failed (the pane went) leaves its buffer: it must not linger server-wide.
    await tmux.runSequence([['delete-buffer', '-b', buffer]]).catch(() => undefined);
    throw error;
  }
}

/** The keys tmux names (`Enter`, `C-c`), to the pane by id. */
export async function sendKeys(tmux: TmuxRun, paneId: string, ...keys: string[]): Promise<void> {
  await tmux.runSequence([['send-keys', '-t', paneId, ...keys]]);
}

/** The pane's visible screen (wrapped lines joined, trailing spaces kept off) and its title, in one call; null when the pane is gone. */
export async function paneScreen(tmux: TmuxRun, paneId: string): Promise<{ text: string; title: string } | null> {
  const marker = `fleetcom-screen-${randomBytes(6).toString('hex')}`;
  let out: string;
  try {
    out = await tmux.runSequence([['display-message', '-p', '-t', paneId, `#{pane_title}\n${marker}`], ['capture-pane', '-p', '-J', '-t', paneId]]);
  } catch (error) {
    if (error instanceof TmuxError) return null;
    throw error;
  }
  const at = out.indexOf(`\n${marker}\n`);
  if (at < 0) return null;
  const text = out.slice(at + marker.length + 2).split('\n').map((line) => line.replace(/\s+$/, '')).join('\n');
  return { title: out.slice(0, at), text };
}
