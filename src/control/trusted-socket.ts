// A client sends its request — with the caller's whole environment, for `run` and `load` — only
// to a socket this user owns in a directory only this user can change. Anyone can create
// `$TMPDIR/fleetcom-<uid>` first and listen there; the same checks as `up` makes on the runtime
// dir, plus the socket's own owner and type, keep a request from ever reaching such a listener.
// Once the directory is ours and closed to others, nobody else can swap the socket before the
// connect.
import { lstatSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { FleetError, NoFleetError } from '../errors.js';
import { unsafeReason, withoutTrailingSlash } from '../fs-safety.js';

export function assertTrustedSocket(socketPath: string, uid: number | undefined = process.getuid?.()): void {
  const dir = withoutTrailingSlash(dirname(socketPath));
  const dirReason = unsafeReason(statOrNoFleet(dir), uid);
  if (dirReason) throw untrusted(socketPath, `its directory ${dir} ${dirReason}`);
  const socket = statOrNoFleet(socketPath);
  if (!socket.isSocket()) throw untrusted(socketPath, socket.isSymbolicLink() ? 'it is a symbolic link' : 'it is not a socket');
  if (uid !== undefined && socket.uid !== uid) throw untrusted(socketPath, `it is owned by uid ${socket.uid}, not by you (uid ${uid})`);
}

function statOrNoFleet(path: string): Stats {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new NoFleetError();
    throw new FleetError(`cannot inspect ${path}: ${(error as Error).message}`);
  }
}

function untrusted(socketPath: string, reason: string): FleetError {
  return new FleetError(`refusing the control socket ${socketPath}: ${reason}; nothing was sent (fix it or choose another runtime dir with FLEETCOM_RUNTIME_DIR)`);
}
