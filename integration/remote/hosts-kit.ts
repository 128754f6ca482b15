// One world for the hosts tests: two OpenSSH "hosts" (ssh-hosts.mjs) and a local sandbox whose
// fleetcom reaches them through its own ssh config (FLEETCOM_SSH_COMMAND), never ~/.ssh.
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createSandbox, type Sandbox } from '../helpers/sandbox.js';
import { startSshHosts, sshHostsUnavailable, type SshHosts } from '../helpers/ssh-hosts.mjs';
import { controlPath, socketHolder } from '../../src/remote/control-socket.js';

export interface HostsWorld {
  local: Sandbox;
  ssh: SshHosts;
  env: Record<string, string>;
  cli(args: readonly string[], opts?: { env?: Record<string, string>; input?: string; timeout?: number }): Promise<CliResult & { ms: number }>;
  /** The control socket fleetcom keeps for `host`. */
  controlSocket(host: string): string;
  close(): Promise<void>;
}

/** Why the hosts tests cannot run here (printed by the test file that skips), or null. */
export const hostsUnavailable = sshHostsUnavailable();

export async function createHostsWorld(): Promise<HostsWorld> {
  const local = await createSandbox();
  const ssh = await startSshHosts(local.dir);
  const env: Record<string, string> = { ...local.env, ...ssh.localEnv };
  return {
    local,
    ssh,
    env,
    async cli(args, opts = {}) {
      const started = Date.now();
      const result = await runCli(args, { env: { ...env, ...opts.env }, cwd: local.dir, input: opts.input, timeout: opts.timeout });
      return { ...result, ms: Date.now() - started };
    },
    controlSocket: (host) => controlPath(join(env.FLEETCOM_RUNTIME_DIR!, 'ssh'), host),
    async close() {
      // Masters outlive their sshd for a moment, or forever when a test stopped one: by pid.
      for (const host of Object.keys(ssh.hosts)) {
        const master = socketHolder(controlPath(join(env.FLEETCOM_RUNTIME_DIR!, 'ssh'), host));
        if (master !== null) process.kill(master, 'SIGKILL');
      }
      ssh.close();
      await local.cleanup();
    },
  };
}
