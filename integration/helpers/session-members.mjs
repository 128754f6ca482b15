// The processes a tmux pane started, found after the pane's own process has gone: tmux makes
// each pane's process a session leader, and what it starts stays in its session unless it
// leaves it. A real agent's helpers (opencode's and kilo's node, copilot's end hooks) still run
// and write for a moment after the pane's process ended; a world is removed only after them.
// Plain JavaScript so the bench's world shares it with the tests' sandbox.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The live processes (not zombies) of the sessions these pids lead.
 * @param {readonly number[]} leaders
 * @returns {number[]}
 */
export function sessionMembers(leaders) {
  const wanted = new Set(leaders);
  const members = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // it ended meanwhile
    }
    const [state, , , session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (wanted.has(Number(session)) && state !== 'Z') members.push(Number(name));
  }
  return members;
}
