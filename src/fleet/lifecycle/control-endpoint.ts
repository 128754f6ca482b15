// The supervisor's control socket for as long as it serves: listened on at the start, and
// again when the runtime guard finds the file gone or replaced (a listener keeps its socket's
// inode, not its path, so a removed socket file is never reached again).
import { lstatSync } from 'node:fs';
import type { Server } from 'node:net';
import { listenControl, type Handler } from '../../control/server.js';

export interface ControlEndpoint {
  /** The inode of the socket file this listener made (null: unknown). */
  inode(): number | null;
  /** Closes the listener (connections in flight are answered) and listens on the path again. */
  listenAgain(): Promise<void>;
  close(): void;
}

export async function openControl(socket: string, handle: Handler): Promise<ControlEndpoint> {
  let server: Server = await listenControl(socket, handle);
  let inode = inodeOf(socket);
  return {
    inode: () => inode,
    async listenAgain() {
      server.close();
      server = await listenControl(socket, handle);
      inode = inodeOf(socket);
    },
    close: () => server.close(),
  };
}

function inodeOf(path: string): number | null {
  try {
    return lstatSync(path).ino;
  } catch {
    return null;
  }
}
