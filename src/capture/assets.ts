// The two files a capture namespace holds, byte for byte.
// They run inside the agents, outside fleetcom, and only ever see FLEETCOM_* variables that
// fleetcom itself set on the task.

import { CAPTURE_RESTART_BYTES, ENSURE_CAPTURE_DIR, EVENTS_HOOK } from '../harness/index.js';

export { CAPTURE_RESTART_BYTES, ENSURE_CAPTURE_DIR };


export const CLAUDE_SETTINGS_FILE = 'claude-settings.json';
export const CODEX_NOTIFY_FILE = 'codex-notify.sh';

export const CLAUDE_SETTINGS_MODE = 0o600;
export const CODEX_NOTIFY_MODE = 0o700;

/**
 * claude's SessionStart hook copies its JSON payload (stdin) into the run's capture file —
 * unless a claude background worker runs it. Parking a conversation (`←`) or `--bg` starts a
 * per-user daemon whose workers inherit the environment of the pane that started it, this
 * task's capture file and settings included; measured on claude-code 2.1.332, the fork's
 * `SessionStart{source:"fork"}` then replaced the pane's own id. Every worker has
 * CLAUDE_CODE_SESSION_KIND=bg and a job's worker CLAUDE_JOB_DIR; fleetcom never gives a task
 * either, so the pane's own claude always writes. The skip exits 0, as a hook must.
 */
export const CLAUDE_CAPTURE_HOOK =
  '[ "${CLAUDE_CODE_SESSION_KIND-}" = bg ] || [ -n "${CLAUDE_JOB_DIR-}" ] || ' +
  `{ ${ENSURE_CAPTURE_DIR} && cat > "$FLEETCOM_CAPTURE_FILE"; }`;

/** The hooks whose payloads say whether the agent works or waits. */
export const CLAUDE_ATTENTION_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'Notification', 'SessionEnd', 'PreToolUse', 'PostToolUse'] as const;

/**
 * The tool hooks fire only for the tools that stop for the user's answer (a matcher is a regex
 * of tool names; kept in step with CLAUDE_QUESTION_TOOLS of harness/attention.ts): every other
 * tool call would cost a shell per call for nothing.
 */
const CLAUDE_TOOL_MATCHER = 'AskUserQuestion|ExitPlanMode';

/** The attention hook, shared with copilot's plugin (harness/events-hook.ts). */
export const CLAUDE_EVENTS_HOOK = EVENTS_HOOK;

/**
 * The settings overlay: the SessionStart capture hook first and unchanged,
 * then the attention hook on each attention event. claude runs every matching hook, the
 * user's own included.
 */
export const CLAUDE_SETTINGS = JSON.stringify({
  hooks: Object.fromEntries(
    CLAUDE_ATTENTION_EVENTS.map((event) => [
      event,
      [
        ...(event === 'SessionStart' ? [{ hooks: [{ type: 'command', command: CLAUDE_CAPTURE_HOOK }] }] : []),
        { ...(event === 'PreToolUse' || event === 'PostToolUse' ? { matcher: CLAUDE_TOOL_MATCHER } : {}), hooks: [{ type: 'command', command: CLAUDE_EVENTS_HOOK }] },
      ],
    ]),
  ),
});

/**
 * codex runs this with the notification JSON as `$1`. POSIX sh only (dash, bash --posix, busybox).
 * - The payload and its newline go out in one printf, i.e. one write(2) on an O_APPEND file, so
 *   the two notifiers codex starts after a first turn append whole lines, never interleaved.
 * - An empty payload is not recorded: it carries no id, and at the restart size it would
 *   replace the last good payload.
 * - `set -f` and IFS=newline: the chain splits on newlines only and is never globbed.
 * - The capture write comes first and its failure never stops the chained notifier.
 */
export const CODEX_NOTIFY_SCRIPT = `#!/bin/sh
# fleetcom codex notifier, written by fleetcom into its capture namespace.
# codex runs it with the notification JSON as $1. It appends the payload as one line to
# $FLEETCOM_CAPTURE_FILE (restarting the file with this payload alone once it has grown past
# ${CAPTURE_RESTART_BYTES} bytes), then execs the user's own notifier from $FLEETCOM_NOTIFY_CHAIN
# (its argv, one element per line) with the payload appended.
set -f
nl='
'
unset IFS

if [ -n "\${FLEETCOM_CAPTURE_FILE-}" ] && [ -n "\${1-}" ]; then
  size=0
  if [ -f "$FLEETCOM_CAPTURE_FILE" ]; then
    size=$(wc -c < "$FLEETCOM_CAPTURE_FILE") || size=0
  fi
  if [ $size -gt ${CAPTURE_RESTART_BYTES} ] 2>/dev/null; then
    tmp="$FLEETCOM_CAPTURE_FILE.$$.tmp"
    if printf '%s' "$1$nl" > "$tmp"; then
      mv -f "$tmp" "$FLEETCOM_CAPTURE_FILE" || rm -f "$tmp"
    else
      rm -f "$tmp"
    fi
  else
    printf '%s' "$1$nl" >> "$FLEETCOM_CAPTURE_FILE"
  fi
fi

[ -n "\${FLEETCOM_NOTIFY_CHAIN-}" ] || exit 0
IFS=$nl
if [ $# -gt 0 ]; then
  set -- $FLEETCOM_NOTIFY_CHAIN "$1"
else
  set -- $FLEETCOM_NOTIFY_CHAIN
fi
exec "$@"
`;
