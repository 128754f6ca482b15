// The settings a command runs with: a flag wins over the environment (for the few keys that
// have a variable), which wins over config.json, which wins over the default; each value
// remembers where it came from, for `fleetcom config`.
import type { Deps } from '../deps.js';
import { UsageError } from '../errors.js';
import { configFile } from '../paths.js';
import { readConfig } from './file.js';
import { CONFIG_KEYS, configKeys, type ConfigFile, type ConfigKey, type Settings } from './keys.js';

export type Source = 'default' | 'file' | 'env' | 'flag';

export interface Effective {
  file: string;
  settings: Settings;
  sources: Record<ConfigKey, Source>;
}

/** Pure: defaults, then the file, then the environment's values, then the flags that were given. */
export function mergeSettings(file: ConfigFile, flags: Partial<Settings>, fromEnv: Partial<Settings> = {}): Pick<Effective, 'settings' | 'sources'> {
  const settings = {} as Record<ConfigKey, unknown>;
  const sources = {} as Record<ConfigKey, Source>;
  for (const key of CONFIG_KEYS) {
    const [value, source]: [unknown, Source] = flags[key] !== undefined ? [flags[key], 'flag']
      : fromEnv[key] !== undefined ? [fromEnv[key], 'env']
      : file[key] !== undefined ? [file[key], 'file']
      : [configKeys[key].default, 'default'];
    settings[key] = value;
    sources[key] = source;
  }
  return { settings: settings as unknown as Settings, sources };
}

/**
 * Pure: the settings given by environment variables. A list of words is split on whitespace
 * (a word with a space in it needs config.json's list form); an empty variable counts as unset.
 */
export function envSettings(env: Deps['env']): Partial<Settings> {
  const out: Partial<Settings> = {};
  const wordsOf = (name: string): string[] | undefined => {
    const text = env[name]?.trim();
    return text === undefined || text === '' ? undefined : text.split(/\s+/);
  };
  const ssh = wordsOf(configKeys.sshCommand.env);
  if (ssh !== undefined) out.sshCommand = ssh;
  const remote = wordsOf(configKeys.remoteCommand.env);
  if (remote !== undefined) out.remoteCommand = remote;
  const timeout = env[configKeys.hostTimeoutSeconds.env]?.trim();
  if (timeout !== undefined && timeout !== '') {
    const seconds = Number(timeout);
    const check = configKeys.hostTimeoutSeconds.schema.safeParse(seconds);
    if (!check.success) throw new UsageError(`${configKeys.hostTimeoutSeconds.env}=${timeout}: ${check.error.issues[0]?.message ?? 'invalid'}`);
    out.hostTimeoutSeconds = seconds;
  }
  return out;
}

/** Reads the config file of this environment and applies its variables and `flags` over it. */
export function effectiveSettings(deps: Pick<Deps, 'env'>, flags: Partial<Settings> = {}): Effective {
  const file = configFile(deps.env);
  return { file, ...mergeSettings(readConfig(file), flags, envSettings(deps.env)) };
}
