// `ls` and `ls --json`, which scripts and status bars call most, built as a bundle of their own
// (scripts/bundle.mjs: dist/ls-client.js, without splitting): Node loads its ~11 kB as one
// file instead of the dozen chunks the split bundle spreads it over, ~9 ms of a start of
// ~48 ms on 2 cores (docs/performance.md). Its errors are reported here because the bundle
// has its own copy of the error classes, which the entry's `instanceof` would not know.
import { runLs } from './commands/tasks.js';
import type { Deps } from './deps.js';
import { reporting } from './report.js';

export function runPlainLs(json: boolean, deps: Deps): Promise<number> {
  return reporting(() => runLs(json ? { json: true } : {}, deps), deps);
}
