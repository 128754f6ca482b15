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

/** As capture/assets.ts's CAPTURE_RESTART_BYTES (a test keeps them equal; capture/ is a layer up). */
export const OPENCODE_RESTART_BYTES = 256 * 1024;

export const OPENCODE_PLUGIN_FILE = 'opencode-plugin.js';
export const OPENCODE_PLUGIN_MODE = 0o600;

export const OPENCODE_PLUGIN = `// fleetcom's opencode plugin, written by fleetcom into its capture namespace.
import { appendFileSync, lstatSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const CAP = ${OPENCODE_RESTART_BYTES};
const capture = process.env.FLEETCOM_CAPTURE_FILE || '';
// This run's files are this process's alone: a program opencode starts (its shell tool, an
// opencode inside it) must not write into them.
delete process.env.FLEETCOM_CAPTURE_FILE;
const events = capture.endsWith('.json') ? capture.slice(0, -5) + '.events' : '';
const ATTENTION = new Set(['session.status', 'session.idle', 'permission.asked', 'permission.updated', 'permission.replied']);
const main = new Set();

// A tmp cleaner can remove the namespace; the supervisor makes it again within 2 s, but an
// event in that gap would be lost (a session created then would never be captured). The
// directory is made again here (0700), and it must be a real directory (not a symlink) of this
// user that neither group nor others can write, as the supervisor checks it; else nothing is
// written.
function safeDir(dir) {
  try {
    const s = lstatSync(dir);
    return s.isDirectory() && (process.getuid === undefined || s.uid === process.getuid()) && (s.mode & 0o022) === 0;
  } catch {
    return false;
  }
}
function dirReady(file) {
  const dir = dirname(file);
  try { lstatSync(dir); } catch { try { mkdirSync(dir, { recursive: true, mode: 0o700 }); } catch {} }
  return safeDir(dir);
}

function append(file, record) {
  if (!file || !file.startsWith('/') || !dirReady(file)) return;
  try {
    const line = JSON.stringify(record) + '\\n';
    let size = 0;
    try { size = statSync(file).size; } catch {}
    if (size > CAP) {
      const tmp = file + '.' + process.pid + '.tmp';
      writeFileSync(tmp, line, { mode: 0o600 });
      renameSync(tmp, file);
    } else {
      appendFileSync(file, line, { mode: 0o600 });
    }
  } catch {}
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
