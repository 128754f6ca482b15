import { CAPTURE_RESTART_BYTES } from './events-hook.js';

// The JavaScript the agents' in-process plugins share (opencode's plugin, pi's extension):
// `append(file, record)` writes one JSON line, 0600, restarting the file with that line alone
// once it has grown past the capture cap (written beside it and renamed over it), and never
// throws into the agent. The plugins import only node: builtins, so the agent installs nothing.
export const APPEND_JS = `import { appendFileSync, lstatSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const CAP = ${CAPTURE_RESTART_BYTES};

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
`;
