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
// qwen expands `$NAME` and `${NAME}` in every settings string from its environment (its
// resolveEnvVarsInString), so no command here names a variable in a form it would expand: each
// `$name` of the shared hook code is written `${name-}` (the same to sh, and no variable qwen
// knows). The hooks are inline, as claude's are, so that they make a swept namespace again
// before they write (events-hook.ts). They skip a qwen that a qwen tool started (its shell tool
// gives every command `QWEN_CODE=1`; fleetcom's own launch clears it), so a nested qwen, which
// inherits the overlay, never writes into the task's files. SessionStart (at start, and after
// `/clear`, which starts a new session) copies its payload into the capture file; every hook
// appends its payload to the events file beside it.

export const QWEN_DEFAULTS_FILE = 'qwen-system-defaults.json';

/** The hooks whose payloads say whether qwen works, waits or asks (claude's names and payloads). */
export const QWEN_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'Notification', 'PermissionRequest', 'SessionEnd'] as const;

/** qwen's own version of its settings files: a file without it is rewritten by qwen with it. */
const SETTINGS_VERSION = 4;

/** sh code with every `$name` as `${name-}`, which qwen's expansion leaves alone. */
export const unexpandable = (code: string) => code.replace(/\$(\w+)/g, '${$1-}');

const NOT_NESTED = '[ -n "${QWEN_CODE-}" ] && exit 0; ';
const CAPTURE = unexpandable(`${NOT_NESTED}{ ${ENSURE_CAPTURE_DIR} && cat > "$FLEETCOM_CAPTURE_FILE"; } >/dev/null 2>&1; exit 0`);
const EVENTS = unexpandable(`${NOT_NESTED}${EVENTS_HOOK}`);

export const QWEN_DEFAULTS = JSON.stringify({
  $version: SETTINGS_VERSION,
  hooks: Object.fromEntries(
    QWEN_HOOK_EVENTS.map((event) => [
      event,
      [
        ...(event === 'SessionStart' ? [{ hooks: [{ type: 'command', command: CAPTURE }] }] : []),
        { hooks: [{ type: 'command', command: EVENTS }] },
      ],
    ]),
  ),
});

export const QWEN_ASSETS: NamespaceAsset[] = [{ file: QWEN_DEFAULTS_FILE, mode: 0o600, content: QWEN_DEFAULTS }];

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
