// The human table of `fleetcom ls`. Pure.
import type { LsRecord } from '../../control/protocol.js';
import { glyphFor, TAGGED_GLYPH } from '../../fleet/supervisor/glyphs.js';
import { alignColumns } from '../columns.js';
import { statusLine } from '../../worktree-record.js';

export function formatTaskTable(tasks: readonly LsRecord[], home: string | undefined): string {
  if (tasks.length === 0) return 'no tasks (add one with: fleetcom run -- CMD)\n';
  const rows = tasks.map((t) => [
    String(t.id),
    // The attention has its own column here.
    `${glyphFor(t.state, t.exitStatus)}${t.tagged ? TAGGED_GLYPH : ''}`,
    t.name ?? t.command ?? `task ${t.id}`,
    home && (t.cwd === home || t.cwd.startsWith(`${home}/`)) ? `~${t.cwd.slice(home.length)}` : t.cwd,
    t.attention ?? '-',
    t.conversationId ? `${t.conversationId} (${t.idSource})` : '-',
  ]);
  // A BRANCH column only in a fleet with worktree tasks: `feat-x ↑2 +10 −3 *` (as last read in the background).
  if (tasks.some((t) => t.worktree)) {
    tasks.forEach((t, i) => rows[i]!.splice(4, 0, t.worktree ? statusLine(t.worktree.branch, t.worktree.status) : '-'));
    return alignColumns(['ID', 'ST', 'TASK', 'DIR', 'BRANCH', 'ATTENTION', 'CONVERSATION'], rows);
  }
  return alignColumns(['ID', 'ST', 'TASK', 'DIR', 'ATTENTION', 'CONVERSATION'], rows);
}
