// fleetcom's opencode plugin, written into each capture namespace and given to one launch
// through OPENCODE_CONFIG_CONTENT (opencode merges that inline config over the user's own:
// their config, provider and plugins still load — measured on 1.18.33). It imports only
// node: builtins, so opencode installs nothing for it, and it opens no connection.
//
// What it writes, one JSON line each, only for sessions without a parent (a subagent's
// session is never the task's conversation):
//   the capture file (FLEETCOM_CAPTURE_FILE): {"type": "session.created" | "session.updated", "id", "directory"}
//   the events file beside it (`.events`):   {"type", "sessionID", "status"?} of session.status,
//                                            session.idle and permission events, for attention
// Each file restarts with its newest line alone past the size cap (written beside it and
// renamed over it), like the other agents' capture files; a removed directory is made again.
// Nothing here ever throws into opencode.

import { APPEND_JS } from '../append-js.js';
import { CAPTURE_RESTART_BYTES } from '../events-hook.js';

/** The capture files' cap, as every agent's. */
export const OPENCODE_RESTART_BYTES = CAPTURE_RESTART_BYTES;

export const OPENCODE_PLUGIN_FILE = 'opencode-plugin.js';
export const OPENCODE_PLUGIN_MODE = 0o600;

export const OPENCODE_PLUGIN = `// fleetcom's opencode plugin, written by fleetcom into its capture namespace.
${APPEND_JS}
const capture = process.env.FLEETCOM_CAPTURE_FILE || '';
// This run's files are this process's alone: a program opencode starts (its shell tool, an
// opencode inside it) must not write into them.
delete process.env.FLEETCOM_CAPTURE_FILE;
const events = capture.endsWith('.json') ? capture.slice(0, -5) + '.events' : '';
const ATTENTION = new Set(['session.status', 'session.idle', 'permission.asked', 'permission.updated', 'permission.replied']);
const main = new Set();

export const FleetcomCapture = async () => ({
  event: async ({ event }) => {
    try {
      const type = event && event.type;
      const props = (event && event.properties) || {};
      if (type === 'session.created' || type === 'session.updated') {
        const info = props.info || {};
        if (typeof info.id !== 'string' || info.parentID) return;
        main.add(info.id);
        append(capture, { type, id: info.id, directory: typeof info.directory === 'string' ? info.directory : null });
      } else if (ATTENTION.has(type)) {
        const id = props.sessionID;
        if (typeof id !== 'string' || !main.has(id)) return;
        const status = props.status && typeof props.status.type === 'string' ? props.status.type : undefined;
        append(events, { type, sessionID: id, ...(status ? { status } : {}) });
      }
    } catch {}
  },
});
`;
