import * as path from 'node:path';
import { readTextFile } from '../fs-read.js';
import { isJsonObject } from '../json-shape.js';
import { qwenOverlayDisplaces } from './hooks.js';

// doctor: what keeps fleetcom's qwen hooks (hooks.ts) from reporting a qwen task's attention,
// turns and `/clear`: a system-defaults file the overlay would stand in for (fleetcom then adds
// no hooks), or the user's `disableAllHooks`.

export function qwenWarnings(home: string, env: Readonly<Record<string, string | undefined>> = {}): string[] {
  const warnings: string[] = [];
  const displaced = qwenOverlayDisplaces(env, process.platform);
  if (displaced !== null) {
    warnings.push(
      `qwen reads its system defaults from ${displaced}, which fleetcom's hooks would have to stand in for (QWEN_CODE_SYSTEM_DEFAULTS_PATH): ` +
        'so qwen tasks get no hooks, and show no attention, count no turns and follow no /clear',
    );
  }
  const file = path.join(home, 'settings.json');
  const read = readTextFile(file);
  if (read.kind === 'text' && disablesHooks(read.text)) warnings.push(`${file}: "disableAllHooks" is true, so qwen runs none of fleetcom's hooks: its tasks show no attention and count no turns`);
  return warnings;
}

/** qwen reads its settings as JSON with comments. */
function disablesHooks(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text.replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (match, quoted: string | undefined) => quoted ?? ''));
    return isJsonObject(value) && value.disableAllHooks === true;
  } catch {
    return false;
  }
}
