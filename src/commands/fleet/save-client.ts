// `save` built as a bundle of its own (scripts/bundle.mjs: dist/chunks/save-client.js, without
// splitting), for the same reason as ls-client.ts: one file for Node to load instead of the
// chunks save shares with other commands. Its errors are reported here, since the bundle has
// its own copy of the error classes, which the entry's `instanceof` would not know.
import type { Deps } from '../../deps.js';
import { reporting } from '../../report.js';
import { runSave, type SaveOptions } from './save.js';

export function runSaveApart(name: string | undefined, opts: SaveOptions, deps: Deps): Promise<number> {
  return reporting(() => runSave(name, opts, deps), deps);
}
