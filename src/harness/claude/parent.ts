// The variables a claude sets for the programs it starts (its Bash tool, its hooks, its
// background workers) that describe THAT session. A new claude that inherits them behaves as
// that session's child or worker: CLAUDE_CODE_CHILD_SESSION=1 alone turns off its transcript,
// its registry entry and its exit hint (measured on claude-code 2.1.332), so it could never be
// resumed; CLAUDE_CODE_SESSION_KIND=bg makes it a background worker, whose hook payloads
// fleetcom ignores. A task is its own session, so none is ever passed on. The list is what a
// worker's environment held (read from /proc on 2.1.197 and 2.1.332) and what claude itself
// strips when it starts a fresh session. The user's own settings (CLAUDE_CONFIG_DIR,
// ANTHROPIC_*, …) are not markers and always pass.
export const CLAUDE_PARENT_MARKERS: readonly string[] = [
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_JOB_DIR',
  'CLAUDE_CODE_SESSION_KIND',
  'CLAUDE_CODE_SESSION_NAME',
  'CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS',
  'CLAUDE_CODE_CHILD_NOTES_DIR',
];

/** claude's background machinery: daemon sockets, a job's credentials and origin. */
const BACKGROUND_PREFIX = 'CLAUDE_BG_';

export function isParentMarker(name: string): boolean {
  return CLAUDE_PARENT_MARKERS.includes(name) || name.startsWith(BACKGROUND_PREFIX);
}

/** The markers present in an environment, sorted. */
export function parentMarkersIn(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env).filter((name) => env[name] !== undefined && isParentMarker(name)).sort();
}
