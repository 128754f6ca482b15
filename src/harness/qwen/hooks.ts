import * as path from 'node:path';
import { ENSURE_CAPTURE_DIR, EVENTS_HOOK } from '../events-hook.js';
import { statOrNull } from '../fs-read.js';
import type { NamespaceAsset } from '../harness.js';

// fleetcom's qwen hooks, measured on qwen-code 0.24.4 (clients/README.md, "qwen's turns"): qwen
// reads hooks from settings files only — the user's, the project's, and two system files — and
// concatenates every scope's hooks. `QWEN_CODE_SYSTEM_DEFAULTS_PATH` names the lowest of them,
// the system defaults (`/etc/qwen-code/system-defaults.json` unless set), so a launch that
// names a file of fleetcom's there adds these hooks beside the user's own and changes no file
// of theirs. The file it names instead of the machine's is *displaced*: fleetcom adds its
// overlay only where none would be (qwenOverlayDisplaces).
//
// qwen expands `$NAME` and `${NAME}` in every settings string from its environment, so the
// command in the overlay names no variable qwen could expand: it runs the script beside it
// (`${FLEETCOM_CAPTURE_FILE%/*}` names no variable qwen knows, and sh expands it). The script
// skips a qwen that a qwen tool started (its shell tool gives every command `QWEN_CODE=1`;
// fleetcom's own launch clears it), so a nested qwen, which inherits the overlay, never writes
// into the task's files. SessionStart (at start, and after `/clear`, which starts a new
// session) copies its payload into the capture file; every hook appends its payload to the
// events file beside it (events-hook.ts).

export const QWEN_DEFAULTS_FILE = 'qwen-system-defaults.json';
export const QWEN_HOOK_SCRIPT = 'qwen-hook.sh';

/** The hooks whose payloads say whether qwen works, waits or asks (claude's names and payloads). */
export const QWEN_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'Notification', 'PermissionRequest', 'SessionEnd'] as const;

/** qwen's own version of its settings files: a file without it is rewritten by qwen with it. */
const SETTINGS_VERSION = 4;

const SCRIPT = `#!/bin/sh
# fleetcom's qwen hook, written by fleetcom into its capture namespace. qwen runs it with the
# hook's JSON payload on stdin: \`capture\` copies it into $FLEETCOM_CAPTURE_FILE, \`events\`
# appends it to the events file beside it. It prints nothing and always exits 0.
[ -n "\${QWEN_CODE-}" ] && exit 0
if [ "\${1-}" = capture ]; then
  { ${ENSURE_CAPTURE_DIR} && cat > "$FLEETCOM_CAPTURE_FILE"; } >/dev/null 2>&1
  exit 0
fi
${EVENTS_HOOK}
`;

/** Runs the script with its payload, when the namespace is there; never fails the hook. */
const command = (what: 'capture' | 'events') =>
  'case "${FLEETCOM_CAPTURE_FILE-}" in /?*/*) ;; *) exit 0 ;; esac; ' +
  `[ -f "\${FLEETCOM_CAPTURE_FILE%/*}/${QWEN_HOOK_SCRIPT}" ] && exec sh "\${FLEETCOM_CAPTURE_FILE%/*}/${QWEN_HOOK_SCRIPT}" ${what}; exit 0`;

export const QWEN_DEFAULTS = JSON.stringify({
  $version: SETTINGS_VERSION,
  hooks: Object.fromEntries(
    QWEN_HOOK_EVENTS.map((event) => [
      event,
      [
        ...(event === 'SessionStart' ? [{ hooks: [{ type: 'command', command: command('capture') }] }] : []),
        { hooks: [{ type: 'command', command: command('events') }] },
      ],
    ]),
  ),
});

export const QWEN_ASSETS: NamespaceAsset[] = [
  { file: QWEN_DEFAULTS_FILE, mode: 0o600, content: QWEN_DEFAULTS },
  { file: QWEN_HOOK_SCRIPT, mode: 0o700, content: SCRIPT },
];

/** The system settings file qwen reads when the variable does not name one (its getSystemSettingsPath). */
function systemSettingsPath(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return '/Library/Application Support/QwenCode/settings.json';
  return '/etc/qwen-code/settings.json';
}

/**
 * The system defaults file a fleetcom overlay would stand in for, when there is one: the file
 * `QWEN_CODE_SYSTEM_DEFAULTS_PATH` names in the launching environment (whether or not it
 * exists: it is the user's choice), else `system-defaults.json` beside the system settings file,
 * when it exists. qwen reads an empty variable as unset.
 */
export function qwenOverlayDisplaces(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): string | null {
  const named = env.QWEN_CODE_SYSTEM_DEFAULTS_PATH;
  if (named) return named;
  const defaults = path.join(path.dirname(env.QWEN_CODE_SYSTEM_SETTINGS_PATH || systemSettingsPath(platform)), 'system-defaults.json');
  return statOrNull(defaults) === null ? null : defaults;
}
