#!/usr/bin/env node
// The entry (dist/cli.js): turns V8's compile cache on (compile-cache.ts), then runs the
// command line with client.ts, which the build makes a file of its own (scripts/bundle.mjs),
// so that the cache covers it: modules imported statically here would be compiled before the
// cache is on.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startCompileCache } from './compile-cache.js';
import type { Deps } from './deps.js';

/** Runs one command line; returns the exit code (client.ts). */
export async function main(argv: readonly string[], deps?: Deps): Promise<number> {
  return (await import('./client.js')).main(argv, deps);
}

function isEntry(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  startCompileCache(process.env);
  process.exitCode = await main(process.argv.slice(2));
}
