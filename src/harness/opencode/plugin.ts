// fleetcom's opencode plugin, written into each capture namespace and given to one launch
// through OPENCODE_CONFIG_CONTENT (opencode merges that inline config over the user's own:
// their config, provider and plugins still load — measured on 1.18.33). It imports only
// node: builtins, so opencode installs nothing for it, and it opens no connection.
//
// What it writes, one JSON line each, only for sessions without a parent (a subagent's
// session is never the task's conversation):
//   the capture file (FLEETCOM_CAPTURE_FILE): {"type": "session.created" | "session.updated", "id", "directory"}
//   the events file beside it (`.events`):   {"type", "sessionID", "status"?} of session.status,
//                                            session.idle and permission events, for attention;
//                                            {"type": "prompt", "sessionID", "text"} once per user
//                                            message, from its first text part, and `reply` with
//                                            session.idle: the text of the session's last assistant
//                                            message (from message.updated / message.part.updated),
//                                            for send and output (conversing.ts)
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
// Per message id: its role and session; per message, the text of each of its text parts.
const messages = new Map();
const texts = new Map();
const prompted = new Set();
const lastAssistant = new Map();
const KEEP = 256;
function remember(map, key, value) {
  map.set(key, value);
  if (map.size > KEEP) map.delete(map.keys().next().value);
}
function textOfMessage(id) {
  const parts = texts.get(id);
  return parts ? [...parts.values()].join('') : null;
}

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
      } else if (type === 'message.updated') {
        const info = props.info || {};
        if (typeof info.id === 'string' && typeof info.sessionID === 'string' && main.has(info.sessionID)) remember(messages, info.id, { role: info.role, session: info.sessionID });
      } else if (type === 'message.part.updated') {
        const part = props.part || {};
        const message = messages.get(part.messageID);
        if (!message || part.type !== 'text' || typeof part.text !== 'string' || part.synthetic) return;
        const parts = texts.get(part.messageID) || new Map();
        parts.set(part.id, part.text);
        remember(texts, part.messageID, parts);
        if (message.role === 'assistant') remember(lastAssistant, message.session, part.messageID);
        if (message.role === 'user' && !prompted.has(part.messageID)) {
          prompted.add(part.messageID);
          if (prompted.size > KEEP) prompted.delete(prompted.values().next().value);
          append(events, { type: 'prompt', sessionID: message.session, text: part.text });
        }
      } else if (ATTENTION.has(type)) {
        const id = props.sessionID;
        if (typeof id !== 'string' || !main.has(id)) return;
        const status = props.status && typeof props.status.type === 'string' ? props.status.type : undefined;
        const last = type === 'session.idle' ? lastAssistant.get(id) : undefined;
        const reply = last === undefined ? {} : { reply: textOfMessage(last) };
        append(events, { type, sessionID: id, ...(status ? { status } : {}), ...reply });
      }
    } catch {}
  },
});
`;
