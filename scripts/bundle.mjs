#!/usr/bin/env node
// The second half of `npm run build`: after tsc has typechecked and emitted dist/, esbuild
// bundles src/cli.ts into dist/cli.js (the bin) with code splitting, so each command's chunk
// (dist/chunks/) is loaded only when that command runs, and so are the Node built-ins and
// the libraries it imports. A client command then loads a few files instead of ~100 modules:
// measured on 2 cores, `ls` went from ~160 ms CPU to ~94 ms (`node -e 0`: ~65 ms). The rest
// of dist/ stays tsc's output, which the benchmarks and tests import piece by piece.
//
// Chunks sit one directory below dist/, as src/<area>/*.ts do below src/, so the paths that
// code builds from import.meta.url (`../cli.js` in src/fleet/runtime-files.ts) hold in both.
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A worktree installed before esbuild joined the devDependencies has no esbuild: say what to do.
const { build } = await import('esbuild').catch((error) => {
  console.error(`build: esbuild is not installed (${error.code ?? error.message}); run npm ci (or npm install) first`);
  process.exit(1);
});

const root = fileURLToPath(new URL('..', import.meta.url));
const chunks = `${root}dist/chunks`;

rmSync(chunks, { recursive: true, force: true });
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Keeps the shebang of src/cli.ts; the bundle's own source map points back into src/.
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
};
// `ls` and `save` are built on their own below: the entry (the command table) imports each as
// a file beside it (among the chunks), not as chunks of this build.
const apart = {
  name: 'built-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/(ls|save)-client\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
const result = await build({
  ...common,
  entryPoints: ['src/cli.ts'],
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  plugins: [apart],
  // commander is CommonJS and requires Node built-ins; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as __fleetcomRequire } from 'node:module'; const require = __fleetcomRequire(import.meta.url);" },
});
// `ls` and `ls --json` (src/ls-client.ts) as one self-contained file: Node loads one module
// instead of the dozen chunks they would share with the rest, ~9 ms of their start.
const ls = await build({ ...common, entryPoints: ['src/ls-client.ts'], outfile: 'dist/ls-client.js' });
// `save` the same way, beside the chunks that import it (src/commands/ maps to dist/chunks/).
const save = await build({ ...common, entryPoints: ['src/commands/save-client.ts'], outfile: 'dist/chunks/save-client.js' });
// Which source files each output holds and what it imports: the tests check from it that a
// client command's chunks stay free of what it does not need.
const meta = {
  inputs: { ...result.metafile.inputs, ...ls.metafile.inputs, ...save.metafile.inputs },
  outputs: { ...result.metafile.outputs, ...ls.metafile.outputs, ...save.metafile.outputs },
};
writeFileSync(`${root}dist/bundle-meta.json`, `${JSON.stringify(meta)}\n`);
