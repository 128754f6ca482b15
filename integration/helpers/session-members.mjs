// The processes a tmux pane started, found after the pane's own process has gone: tmux makes
// each pane's process a session leader, and what it starts stays in its session unless it
// leaves it. A real agent's helpers (opencode's and kilo's node, copilot's end hooks) still run
// and write for a moment after the pane's process ended; a world is removed only after them.
// Plain JavaScript so the bench's world shares it with the tests' sandbox; each passes the
// process tree fleetcom reads (ownership's processTree, from src or from dist).

/**
 * The live processes (not zombies) of the sessions these pids lead.
 * @param {ReadonlyMap<number, { pid: number, sid: number, state: string }> | null} tree
 * @param {readonly number[]} leaders
 * @returns {number[]}
 */
export function sessionMembers(tree, leaders) {
  const wanted = new Set(leaders);
  return [...(tree?.values() ?? [])].filter((p) => wanted.has(p.sid) && p.state !== 'Z').map((p) => p.pid);
}
