// A private mount namespace holding small tmpfs mounts over some of a sandbox's dirs, to make
// a disk full (ENOSPC) or read-only (EROFS) for real. As root `chmod` does not stop a write,
// so a mount is the honest way. The namespace lives as long as its holder process; whatever
// must see the mounts (the tmux server, hence the supervisor; the CLI) runs through `wrap`.
//
//   const ns = await mountNamespace([{ dir: runtimeDir, kib: 64 }]);   // null: not permitted here
//   await ns.startTmux(sb);                 // the sandbox's tmux server, inside the namespace
//   const fleet = await startFleet(sb, { wrap: ns.wrap });
//   await ns.remount(runtimeDir, 'ro');
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

export interface MountNamespace {
  /** Prefix that runs a command inside the namespace. */
  wrap: string[];
  /** How the test reads a path as the namespace sees it (`/proc/<holder>/root/<path>`). */
  inside(path: string): string;
  remount(dir: string, mode: 'ro' | 'rw'): Promise<void>;
  /** Starts the sandbox's tmux server inside the namespace (a session `hold`). */
  startTmux(sb: Sandbox): Promise<void>;
  close(): void;
}

/** The namespace with a tmpfs of `kib` KiB (mode 0700) over each dir, or null when unshare is refused. */
export async function mountNamespace(mounts: ReadonlyArray<{ dir: string; kib: number }>): Promise<MountNamespace | null> {
  for (const { dir } of mounts) await mkdir(dir, { recursive: true, mode: 0o700 });
  const script = [
    ...mounts.map(({ dir, kib }) => `mount -t tmpfs -o size=${kib}k,mode=0700 fleetcom-test '${dir}' || exit 1`),
    'echo ready',
    'exec sleep 100000',
  ].join('\n');
  const holder: ChildProcess = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  holder.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  holder.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const ready = await waitFor(() => (out.includes('ready') ? true : holder.exitCode !== null ? 'failed' : false), {
    what: 'the mount namespace', timeout: 20_000,
  });
  if (ready === 'failed') return null;
  const pid = holder.pid!;
  const wrap = ['nsenter', '-t', String(pid), '-m', '--'];
  return {
    wrap,
    inside: (path) => join(`/proc/${pid}/root`, path),
    async remount(dir, mode) {
      await execa(wrap[0]!, [...wrap.slice(1), 'mount', '-o', `remount,${mode}`, dir]);
    },
    async startTmux(sb) {
      await execa(wrap[0]!, [...wrap.slice(1), 'tmux', '-S', sb.socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'hold', '-c', sb.dir, 'sleep', '100000'], {
        env: sb.env, extendEnv: false,
      });
    },
    close() {
      holder.kill('SIGKILL');
    },
  };
}
