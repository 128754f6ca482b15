// A pane's screen by polling tmux: one `display-message` + `capture-pane -e` per tick while
// anyone watches it (shared by every viewer of that pane), a frame sent only when the screen
// changed, each frame a whole redraw (so a slow viewer skips frames and loses nothing). Input
// goes in with `send-keys -H` (hex bytes: nothing a shell or tmux's key names could read).
// It stands in for the supervisor's `watch`/`input` ops (its control-mode connection) until
// those exist; the socket code does not know which one it talks to.
import type { TmuxRun } from '../tmux/runner.js';
import type { PaneSize, PaneTransport, PaneViewer } from './pane-transport.js';

const FORMAT = '#{pane_width} #{pane_height} #{cursor_x} #{cursor_y} #{cursor_flag} #{pane_dead}';
/** tmux refuses commands over ~16 KB; hex costs three characters a byte. */
const INPUT_CHUNK = 2048;

interface Watched {
  viewers: Set<PaneViewer>;
  last: string;
  size: PaneSize | null;
  timer: NodeJS.Timeout | null;
  /** Viewers that skipped a frame: they get the next one even if the screen did not change. */
  behind: Set<PaneViewer>;
}

export function pollTransport(tmux: TmuxRun, intervalMs = 40): PaneTransport {
  const panes = new Map<string, Watched>();

  const tick = async (pane: string, w: Watched) => {
    let text: string;
    try {
      text = await tmux.runSequence([['display-message', '-p', '-t', pane, FORMAT], ['capture-pane', '-p', '-e', '-t', pane]]);
    } catch (error) {
      for (const v of w.viewers) v.end(`the pane cannot be read: ${(error as Error).message.split('\n')[0]}`);
      w.viewers.clear();
      panes.delete(pane);
      return;
    }
    const newline = text.indexOf('\n');
    const [cols, rows, cx, cy, cursor] = text.slice(0, newline).split(' ').map(Number) as number[];
    if (!(cols! > 0 && rows! > 0)) return;
    if (w.size === null || w.size.cols !== cols || w.size.rows !== rows) {
      w.size = { cols: cols!, rows: rows! };
      w.last = '';
      for (const v of w.viewers) v.size(w.size);
    }
    const frame = redraw(text.slice(newline + 1), rows!, cx!, cy!, cursor === 1);
    const changed = frame !== w.last;
    w.last = frame;
    const data = Buffer.from(frame);
    for (const v of w.viewers) {
      if (!changed && !w.behind.has(v)) continue;
      if (v.bytes(data)) w.behind.delete(v);
      else w.behind.add(v);
    }
  };

  const schedule = (pane: string, w: Watched) => {
    w.timer = setTimeout(() => {
      void tick(pane, w).finally(() => {
        if (panes.get(pane) === w && w.viewers.size > 0) schedule(pane, w);
      });
    }, intervalMs);
  };

  return {
    kind: 'poll',
    watch(pane, viewer, signal) {
      if (signal.aborted) return;
      let w = panes.get(pane);
      if (w === undefined) {
        const fresh: Watched = { viewers: new Set([viewer]), last: '', size: null, timer: null, behind: new Set() };
        panes.set(pane, fresh);
        w = fresh;
        void tick(pane, fresh).finally(() => {
          if (panes.get(pane) === fresh && fresh.viewers.size > 0) schedule(pane, fresh);
        });
      } else {
        w.viewers.add(viewer);
        w.behind.add(viewer);
        if (w.size !== null) viewer.size(w.size);
      }
      const watched = w;
      signal.addEventListener('abort', () => {
        watched.viewers.delete(viewer);
        watched.behind.delete(viewer);
        if (watched.viewers.size === 0) {
          if (watched.timer !== null) clearTimeout(watched.timer);
          if (panes.get(pane) === watched) panes.delete(pane);
        }
      }, { once: true });
    },
    async input(pane, data) {
      for (let at = 0; at < data.length; at += INPUT_CHUNK) {
        const hex = [...data.subarray(at, at + INPUT_CHUNK)].map((b) => b.toString(16).padStart(2, '0'));
        await tmux.run(['send-keys', '-t', pane, '-H', ...hex]);
      }
    },
    close() {
      for (const w of panes.values()) if (w.timer !== null) clearTimeout(w.timer);
      panes.clear();
    },
  };
}

/** One whole screen: every row cleared and written at its place, then the cursor where the pane has it. */
export function redraw(capture: string, rows: number, cx: number, cy: number, cursorVisible: boolean): string {
  const lines = capture.split('\n');
  let out = '\x1b[?25l';
  for (let row = 0; row < rows; row++) out += `\x1b[${row + 1};1H\x1b[0m\x1b[2K${lines[row] ?? ''}`;
  return `${out}\x1b[0m\x1b[${cy + 1};${cx + 1}H${cursorVisible ? '\x1b[?25h' : ''}`;
}
