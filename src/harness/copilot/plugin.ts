import { ENSURE_CAPTURE_DIR, EVENTS_HOOK } from '../events-hook.js';

// fleetcom's copilot plugin: the capture namespace itself is the plugin directory, given to one
// launch with `--plugin-dir <namespace>` (measured on 1.0.102: a plugin's hooks run beside the
// user's own; nothing is installed or written into COPILOT_HOME). copilot sends its
// PascalCase hooks claude's payloads (`hook_event_name`, `session_id`, `cwd`, `source`), so the
// hooks are claude's: SessionStart copies its payload into the capture file, and every
// attention hook appends its payload to the events file beside it.
//
// SessionStart fires at the first message of each conversation (`source` `new`, `resume`),
// not at start: a /clear starts the next conversation there too.

export const COPILOT_PLUGIN_FILE = 'plugin.json';
export const COPILOT_HOOKS_FILE = 'copilot-hooks.json';
export const COPILOT_PLUGIN_MODE = 0o600;

// The namespace made again first when a tmp cleaner removed it (events-hook.ts says why).
const CAPTURE_HOOK = `{ ${ENSURE_CAPTURE_DIR} && cat > "$FLEETCOM_CAPTURE_FILE"; }; exit 0`;

/** The hooks whose payloads say whether copilot works or waits (claude's names and payloads). */
const ATTENTION_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'Notification', 'SessionEnd'] as const;

const command = (bash: string) => ({ type: 'command', bash, timeoutSec: 10 });

export const COPILOT_HOOKS = JSON.stringify({
  version: 1,
  hooks: Object.fromEntries(
    ATTENTION_EVENTS.map((event) => [event, [...(event === 'SessionStart' ? [command(CAPTURE_HOOK)] : []), command(EVENTS_HOOK)]]),
  ),
});

export const COPILOT_PLUGIN = JSON.stringify({
  name: 'fleetcom',
  version: '1.0.0',
  description: "fleetcom's capture and attention hooks for this task",
  hooks: COPILOT_HOOKS_FILE,
});
