// The variables a claude sets for the programs it starts (its Bash tool, its hooks, its
// background workers) that describe THAT session. A new claude that inherits them behaves as
// that session's child: CLAUDE_CODE_CHILD_SESSION=1 alone turns off its transcript, its
// registry entry and its exit hint (measured on claude-code 2.1.332), so it could never be
// resumed. A task is its own session, so they are never passed on. The user's own settings
// (CLAUDE_CONFIG_DIR, ANTHROPIC_*, …) are not markers and always pass.
export const CLAUDE_PARENT_MARKERS: readonly string[] = [
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_JOB_DIR',
];

/** The markers present in an environment, in list order. */
export function parentMarkersIn(env: Readonly<Record<string, string | undefined>>): string[] {
  return CLAUDE_PARENT_MARKERS.filter((name) => env[name] !== undefined);
}
