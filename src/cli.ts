#!/usr/bin/env node
// The entry, built twice (scripts/bundle.mjs): dist/cli.cjs, the bin, and dist/cli.js, the same
// as an ES module for the command lines that name it (tmux bindings of an older fleetcom,
// scripts). It turns V8's compile cache on (compile-cache.ts), then runs the command line with
// client.ts, built as the CommonJS file dist/chunks/client.cjs: required after the cache is on,
// so that the cache covers it, and without Node's ES module loader, which a start pays for
// once it loads one ES module (~7 ms of CPU on 2 loaded cores, docs/performance.md).
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startCompileCache } from './compile-cache.js';

type Client = typeof import('./client.js');

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
  const client = createRequire(import.meta.url)('./chunks/client.cjs') as Client;
  void client.main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
