import { detect } from './detect.js';
import { harnessFor } from './registry.js';
import { resumeCommand } from './resume-command.js';
import type { ConversationOf, ConversationRoots, HarnessName } from './types.js';

// Contract 9.5, "never a child", for every agent through its own `conversationOf`: an id a
// channel reports, and an id a command or a record already names, stand for the conversation
// they belong to. Reads only under the roots it is given.

/** Which conversation a valid id of `harness` belongs to. */
export function conversationOf(harness: HarnessName, id: string, roots: ConversationRoots): ConversationOf {
  return harnessFor(harness).conversationOf(id, roots);
}

/** The id `id` stands for: itself, the root of a child's, or null for a child with none. */
export function owningId(harness: HarnessName, id: string, roots: ConversationRoots): string | null {
  if (!harnessFor(harness).isId(id)) return null;
  const of = conversationOf(harness, id, roots);
  return of.kind === 'none' ? null : of.id;
}

/** A resume command that named a child, redirected. */
export interface Rebinding {
  /** The command instead: the root's resume command, or the bare agent. */
  command: string;
  /** The conversation it now resumes; null when it starts the agent fresh. */
  targetId: string | null;
  /** `<the command> names a subagent thread of <root>` (or why it has no root), for log lines. */
  why: string;
}

/**
 * A resume command whose id names a child: the command that resumes its root instead, or the
 * bare agent when the root cannot be resumed (never the child). Null when the command stands.
 */
export function rebindResume(command: string, roots: ConversationRoots): Rebinding | null {
  const detection = detect(command);
  if (detection.form !== 'resume') return null;
  const of = conversationOf(detection.harness, detection.targetId, roots);
  if (of.kind === 'own') return null;
  const why = `${command} names ${of.note}`;
  if (of.kind === 'parent') return { command: resumeCommand(detection, of.id), targetId: of.id, why };
  return { command: detection.program, targetId: null, why };
}
