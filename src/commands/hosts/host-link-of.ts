// The CLI side of reaching hosts: the settings (config.json and the environment) and the dirs
// of this user's runtime, for remote/host-link.ts.
import { effectiveSettings } from '../../config/settings.js';
import type { Deps } from '../../deps.js';
import { runtimeDir, sshControlDir } from '../../paths.js';
import type { HostLink } from '../../remote/host-link.js';

export interface HostSettings {
  link: HostLink;
  /** The configured hosts (config `hosts`). */
  hosts: string[];
  timeoutMs: number;
}

export function hostSettings(deps: Pick<Deps, 'env'>): HostSettings {
  const { settings } = effectiveSettings(deps);
  return {
    link: { sshCommand: settings.sshCommand, remoteCommand: settings.remoteCommand, runtimeDir: runtimeDir(deps.env), controlDir: sshControlDir(deps.env) },
    hosts: settings.hosts,
    timeoutMs: settings.hostTimeoutSeconds * 1000,
  };
}

/** Prompts (passphrase, MFA, a new host key) can be answered only where a person is. */
export function canPrompt(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}
