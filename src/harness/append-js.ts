import { CAPTURE_RESTART_BYTES } from './events-hook.js';

// The JavaScript the agents' in-process plugins share (opencode's plugin, pi's extension):
// `append(file, record)` writes one JSON line, 0600, restarting the file with that line alone
// once it has grown past the capture cap (written beside it and renamed over it), and never
// throws into the agent. The plugins import only node: builtins, so the agent installs nothing.
export const APPEND_JS = `import { appendFileSync, renameSync, statSync, writeFileSync } from 'node:fs';

const CAP = ${CAPTURE_RESTART_BYTES};

function append(file, record) {
  if (!file) return;
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
