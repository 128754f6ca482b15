// The settings a command runs with: a flag wins over config.json, which wins over the default;
// each value remembers where it came from, for `fleetcom config`.
import type { Deps } from '../deps.js';
import { configFile } from '../paths.js';
import { readConfig } from './file.js';
import { CONFIG_KEYS, configKeys, type ConfigFile, type ConfigKey, type Settings } from './keys.js';

export type Source = 'default' | 'file' | 'flag';

export interface Effective {
  file: string;
  settings: Settings;
  sources: Record<ConfigKey, Source>;
}

/** Pure: defaults, then the file, then the flags that were given. */
export function mergeSettings(file: ConfigFile, flags: Partial<Settings>): Pick<Effective, 'settings' | 'sources'> {
  const settings = {} as Record<ConfigKey, unknown>;
  const sources = {} as Record<ConfigKey, Source>;
  for (const key of CONFIG_KEYS) {
    const [value, source]: [unknown, Source] = flags[key] !== undefined ? [flags[key], 'flag']
      : file[key] !== undefined ? [file[key], 'file']
      : [configKeys[key].default, 'default'];
    settings[key] = value;
    sources[key] = source;
  }
  return { settings: settings as unknown as Settings, sources };
}

/** Reads the config file of this environment and applies `flags` over it. */
export function effectiveSettings(deps: Pick<Deps, 'env'>, flags: Partial<Settings> = {}): Effective {
  const file = configFile(deps.env);
  return { file, ...mergeSettings(readConfig(file), flags) };
}
