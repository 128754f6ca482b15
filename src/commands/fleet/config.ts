// `fleetcom config [--json]`: the settings `up` would run with, and where each comes from.
import type { Deps } from '../../deps.js';
import { CONFIG_KEYS, configKeys } from '../../config/keys.js';
import { effectiveSettings } from '../../config/settings.js';

export async function runConfig(opts: { json?: boolean }, deps: Deps): Promise<number> {
  const { file, settings, sources } = effectiveSettings(deps);
  if (opts.json) {
    const keys = Object.fromEntries(CONFIG_KEYS.map((k) => [k, { value: settings[k], source: sources[k] }]));
    deps.stdout.write(`${JSON.stringify({ file, settings: keys }, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...CONFIG_KEYS.map((k) => k.length));
  const lines = CONFIG_KEYS.map((k) => {
    const from = { file: 'config file', env: 'environment', flag: 'flag', default: 'default' }[sources[k]];
    return `${k.padEnd(width)}  ${JSON.stringify(settings[k]).padEnd(8)}  ${from.padEnd(11)}  ${configKeys[k].about}`;
  });
  deps.stdout.write(`# ${file}\n${lines.join('\n')}\n`);
  return 0;
}
