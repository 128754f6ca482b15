// Queries over hundreds of panes: tmux refuses a client command over 16 KiB and runs nothing,
// so the per-pane queries `down`, `kill` and the dashboard send are cut into invocations that fit.
import { describe, expect, it } from 'vitest';
import { BATCH_BYTES } from '../../src/tmux/batch.js';
import { livePanePids } from '../../src/tmux/panes.js';
import { capturePanes } from '../../src/tmux/screens.js';
import { newWindows } from '../../src/tmux/windows.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

const PANES = 400;

describe('queries over many panes', () => {
  it(`reads the live pid and the screen of each of ${PANES} panes`, async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const specs = Array.from({ length: PANES }, (_, i) => ({
      session, name: `t${i}`, cwd: sb.dir, argv: ['sh', '-c', `echo screen-${i}; exec sleep 1000`],
    }));
    const made = await newWindows(sb.runner, specs);
    const windows = made.map((w) => {
      if (w instanceof Error) throw w;
      return w;
    });
    const ids = windows.map((w) => w.paneId);
    // The queries really are over tmux's limit for one invocation.
    expect(ids.length * `display-message -p -t %100 #{pane_id}…`.length).toBeGreaterThan(BATCH_BYTES);

    const pids = await livePanePids(sb.runner, ids);
    expect(pids.size).toBe(PANES);
    for (const w of windows) expect(pids.get(w.paneId)).toBe(w.panePid);

    const screens = await waitFor(async () => {
      const got = await capturePanes(sb.runner, ids);
      return ids.every((id, i) => got.get(id) === `screen-${i}`) ? got : false;
    }, { what: `each of ${PANES} panes showing its line` });
    expect(screens.size).toBe(PANES);
  });
});
