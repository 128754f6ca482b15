// Read-only views of tasks for clients (`ls --json`).
import { rewriteCommand, type AttentionState, type Resolved } from '../../harness/index.js';
import { parkedJobView } from '../rerun/parked-jobs.js';
import type { LsRecord } from '../../control/protocol.js';
import { IDLE_AFTER_MS, taskState, type Task } from './task.js';
import type { WorktreeStatus } from '../../worktrees/status.js';

export function lsRecord(task: Task, now: number, resolved: Resolved | null, attention: AttentionState, idleMs = IDLE_AFTER_MS, tmuxSocket: string | null = null, worktreeStatus: WorktreeStatus | null = null, turn: number | null = null): LsRecord {
  const source = resolved && resolved.source !== 'correlation' ? resolved.source : null;
  const id = source ? resolved!.id : null;
  return {
    id: task.id,
    run: task.run,
    cwd: task.cwd,
    command: task.command,
    name: task.name,
    group: task.group,
    tagged: task.tagged,
    state: taskState(task, now, idleMs),
    exitStatus: task.exitStatus,
    killed: task.killed,
    harness: task.harness,
    conversationId: id,
    idSource: source,
    resumeCommand: task.command === null ? null : rewriteCommand(task.command, id),
    parkedJob: parkedJobView(task),
    windowId: task.windowId,
    paneId: task.paneId,
    tmuxSocket,
    spawnedAt: new Date(task.spawnedAt).toISOString(),
    lastOutputAt: new Date(task.lastOutputAt).toISOString(),
    attention: attention.attention,
    attentionSince: attention.since === null ? null : new Date(attention.since).toISOString(),
    // The agent's own words while it waits (a question's text, claude's notification), as the dashboard shows them.
    attentionMessage: attention.attention === 'waiting' || attention.attention === 'permission' ? attention.message : null,
    turn,
    worktree: task.worktree ? { ...task.worktree, status: worktreeStatus } : null,
  };
}
