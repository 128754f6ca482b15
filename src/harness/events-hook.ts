// The command hook that appends an agent's hook payload to the run's events file. claude's
// settings overlay (capture/assets.ts) and copilot's plugin run the same command: both send
// each hook a JSON payload on stdin with `hook_event_name` and `session_id`.

/** Past this many bytes a capture or events file restarts with the newest payload alone (8.3). */
export const CAPTURE_RESTART_BYTES = 256 * 1024;

/**
 * A POSIX sh condition: the capture file's directory is there — made again when a tmp cleaner
 * removed it — and safe to write into. The supervisor's runtime guard brings a removed
 * namespace back within 2 s, but a hook that runs in that gap (a claude `/clear`) would write
 * its new id into nothing, and a later save would resume the conversation from before the
 * /clear. Missing directories are made 0700 (umask 077), as the guard makes them; then the
 * namespace must be a real directory (not a symlink) of this user that neither group nor others
 * can write (restoreNamespace's checks), else the hook writes nothing. A path that is not
 * absolute is refused (fleetcom always sets one).
 */
export const ENSURE_CAPTURE_DIR =
  '{ case "${FLEETCOM_CAPTURE_FILE-}" in /?*/*) ;; *) false ;; esac && d="${FLEETCOM_CAPTURE_FILE%/*}" && ' +
  '{ [ -d "$d" ] || (umask 077 && mkdir -p "$d") 2>/dev/null; } && [ ! -h "$d" ] && [ -d "$d" ] && [ -O "$d" ] && ' +
  'case $(ls -ld "$d" 2>/dev/null) in ?????w*|????????w*) false ;; *) true ;; esac; }';

/**
 * Appends its payload (stdin) as one line to `<capture file minus .json>.events`, 0600 (umask),
 * restarting the file with this payload alone once it has grown past the cap. It prints
 * nothing (claude adds a UserPromptSubmit hook's stdout to the conversation) and exits 0
 * whatever happens (a hook's exit 2 would block the prompt). The payload goes out in one
 * printf: one write on O_APPEND.
 */
export const EVENTS_HOOK =
  `{ [ -n "\${FLEETCOM_CAPTURE_FILE-}" ] || exit 0; ${ENSURE_CAPTURE_DIR} || exit 0; umask 077; f="\${FLEETCOM_CAPTURE_FILE%.json}.events"; ` +
  'p=$(tr -d \'\\n\'); [ -n "$p" ] || exit 0; s=0; [ -f "$f" ] && s=$(wc -c < "$f"); ' +
  `if [ $s -gt ${CAPTURE_RESTART_BYTES} ]; then printf '%s\\n' "$p" > "$f.$$.tmp" && mv -f "$f.$$.tmp" "$f"; ` +
  `else printf '%s\\n' "$p" >> "$f"; fi; } >/dev/null 2>&1; exit 0`;
