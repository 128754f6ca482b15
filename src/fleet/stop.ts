// Stopping tasks: SIGTERM to each pane's process group, SIGKILL to what is left after 2 s,
// and return only once tmux reports every pane dead (product.md §2: replies wait for tmux).
import type { FleetTmux } from './tmux-port.js';

const TERM_GRACE_MS = 2_000;
const KILL_DEADLINE_MS = 10_000;

export async function stopProcessGroups(tmux: FleetTmux, paneIds: readonly string[]): Promise<void> {
  if (paneIds.length === 0) return;
  const wanted = new Set(paneIds);
  const alive = async () => (await tmux.listPanes()).filter((p) => wanted.has(p.paneId) && !p.dead);
  signal(await alive(), 'SIGTERM');
  const termDeadline = Date.now() + TERM_GRACE_MS;
  let left = await alive();
  while (left.length > 0 && Date.now() < termDeadline) {
    await pause(50);
    left = await alive();
  }
  if (left.length === 0) return;
  signal(left, 'SIGKILL');
  const killDeadline = Date.now() + KILL_DEADLINE_MS;
  while ((await alive()).length > 0 && Date.now() < killDeadline) await pause(50);
}

function signal(panes: { pid: number | null }[], sig: NodeJS.Signals): void {
  for (const { pid } of panes) {
    if (pid === null || pid <= 1) continue;
    try {
      process.kill(-pid, sig); // tmux starts each pane's process as a session and group leader
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
