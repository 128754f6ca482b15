// The two files a capture namespace holds (resume contract section 3 and 8.3), byte for byte.
// They run inside the agents, outside fleetcom, and only ever see FLEETCOM_* variables that
// fleetcom itself set on the task.

export const CLAUDE_SETTINGS_FILE = 'claude-settings.json';
export const CODEX_NOTIFY_FILE = 'codex-notify.sh';

export const CLAUDE_SETTINGS_MODE = 0o600;
export const CODEX_NOTIFY_MODE = 0o700;

/** Past this many bytes the codex capture file restarts with the newest payload alone (8.3). */
export const CAPTURE_RESTART_BYTES = 256 * 1024;

/** claude's SessionStart hook copies its JSON payload (stdin) into the run's capture file. */
export const CLAUDE_SETTINGS =
  '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"cat > \\"$FLEETCOM_CAPTURE_FILE\\""}]}]}}';

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
