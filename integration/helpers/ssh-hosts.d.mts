// Types of ssh-hosts.mjs for the TypeScript tests.
export interface SshHost {
  name: string;
  port: number;
  /** The host's sandbox dir (its HOME is `<dir>/home`). */
  dir: string;
  /** The environment its sshd forces on every session. */
  env: Record<string, string>;
  tmuxSocket: string;
  stop(): void;
  start(): Promise<void>;
  freeze(): void;
  thaw(): void;
}
export interface SshHosts {
  wrap: string[];
  sshConfig: string;
  sshCommand: string[];
  localEnv: { FLEETCOM_SSH_COMMAND: string };
  hosts: Record<string, SshHost>;
  close(): void;
}
export function sshHostsUnavailable(): string | null;
export function startSshHosts(dir: string, names?: string[]): Promise<SshHosts>;
