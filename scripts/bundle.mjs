#!/usr/bin/env node
// The second half of `npm run build`: after tsc has typechecked and emitted dist/, esbuild
// bundles the bin in three parts, so that a command loads only the code it runs:
//
//   dist/cli.cjs           the bin (and dist/cli.js, the same as an ES module): turns V8's
//                          compile cache on, then requires the client
//   dist/chunks/client.cjs one CommonJS file: the command line's way and the commands scripts,
//                          keys and the Tab call most (src/client.ts, commands/hot-path.ts),
//                          without commander and without Node's ES module loader
//   dist/chunks/program.js the commander program and every other command, split per command
//                          (dist/chunks/*-HASH.js: each command's code, with the Node
//                          built-ins and libraries it uses, loaded when that command runs);
//                          dist/chunks/remote.js (`--host`) and save-client.js (`save`) beside it
//
// Node loads a dozen small chunks ~8 ms slower than the same code as one file, so the hot
// commands are one file (their code is in the package twice); the whole bin as one file was
// slower still. The rest of dist/ stays tsc's output, which the benchmarks and tests import
// piece by piece. Chunks sit one directory below dist/, as src/<area>/*.ts do below src/, so
// the paths that code builds from import.meta.url (`../cli.cjs` in src/fleet/runtime-files.ts,
// `../../package.json` in src/commands/version.ts) hold in both.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
// The hot path is CommonJS: Node's ES module loader costs a start ~7 ms of CPU (2 loaded
// cores) the first time it loads a module. Its code reads import.meta.url (version.ts).
const commonJs = {
  format: 'cjs',
  define: { 'import.meta.url': '__fleetcomUrl' },
  banner: { js: "var __fleetcomUrl = require('node:url').pathToFileURL(__filename).href;" },
};
// commander is CommonJS and requires Node built-ins; an ES module has no `require` of its own.
const requireBanner = { js: "import { createRequire as __fleetcomRequire } from 'node:module'; const require = __fleetcomRequire(import.meta.url);" };

/** Imports of files another build makes: left as imports, of the file's path in dist/chunks/ (`from` holds). */
const apart = (name, files) => ({
  name,
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, (args) => {
      const hit = files.find(([source]) => args.path === source || args.path.endsWith(`/${source}`));
      return hit === undefined ? undefined : { path: hit[1], external: true };
    });
  },
});

// What completion offers, read off the command table now (tsc's output of program.ts), so
// that the Tab's answer needs no commander.
const { programShape } = await import(pathToFileURL(`${root}dist/commands/program.js`).href);
const shape = programShape({ env: {}, cwd: root, stdout: { write: () => true }, stderr: { write: () => true }, now: Date.now });

// The hot path as one file. What it imports on demand and does not run itself (the commander
// program, `--host`, the hosts of `next`, the saved sessions of a Tab) stays out of it: each
// such module becomes an entry of the split build below, dist/chunks/<name>.js.
const HOT_INLINE = new Set(['src/commands/tasks/tasks.ts', 'src/commands/completion.ts', 'src/commands/version.ts', 'src/commands/orchestration/output.ts', 'src/commands/orchestration/wait.ts']);
const splitEntries = new Map([['src/commands/program.ts', 'program']]);
const onDemandApart = {
  name: 'on-demand-apart',
  setup(b) {
    b.onResolve({ filter: /^\./, namespace: 'file' }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const source = relative(root, resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      if (HOT_INLINE.has(source)) return undefined;
      if (source === 'src/commands/fleet/save-client.ts') return { path: './save-client.js', external: true }; // built below
      const name = basename(source, '.ts') === 'index' ? basename(dirname(source)) : basename(source, '.ts');
      splitEntries.set(source, name);
      return { path: `./${name}.js`, external: true };
    });
  },
};
const client = await build({
  ...common,
  ...commonJs,
  entryPoints: ['src/client.ts'],
  outfile: 'dist/chunks/client.cjs',
  define: { ...commonJs.define, BUILT_PROGRAM_SHAPE: JSON.stringify(JSON.stringify(shape)) },
  plugins: [onDemandApart],
});
if (new Set(splitEntries.values()).size !== splitEntries.size) throw new Error(`build: two on-demand modules of the hot path share a name: ${[...splitEntries].join(', ')}`);

// The commander program and every command, split per command, with the hot path's on-demand
// modules as entries of their own names. `save` is built on its own below: the command table
// imports it as a file beside the chunks.
const program = await build({
  ...common,
  entryPoints: [...splitEntries].map(([source, name]) => ({ in: source, out: `chunks/${name}` })),
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  plugins: [apart('save-apart', [['save-client.js', './save-client.js']])],
  banner: requireBanner,
});
// `save` as one self-contained file, beside the chunks that import it.
const save = await build({ ...common, entryPoints: ['src/commands/fleet/save-client.ts'], outfile: 'dist/chunks/save-client.js' });

const entry = await build({ ...common, ...commonJs, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.cjs' });

// The web page (`fleetcom web`): page/ bundled for browsers into dist/web/, with xterm.js's
// stylesheet and the page's own files beside it. Everything the page loads comes from there,
// so the package ships it ("files" in package.json) and the page needs no CDN.
const web = `${root}dist/web`;
rmSync(web, { recursive: true, force: true });
mkdirSync(web, { recursive: true });
const browser = { absWorkingDir: root, bundle: true, platform: 'browser', target: ['chrome100', 'safari15', 'firefox100'], minify: true, logLevel: 'warning', legalComments: 'none' };
await build({ ...browser, entryPoints: ['page/main.ts'], outfile: 'dist/web/app.js', format: 'iife' });
await build({ ...browser, entryPoints: ['page/sw.ts'], outfile: 'dist/web/sw.js', format: 'iife' });
writeFileSync(`${web}/app.css`, `${readFileSync(`${root}node_modules/@xterm/xterm/css/xterm.css`, 'utf8')}\n${readFileSync(`${root}page/app.css`, 'utf8')}`);
for (const file of ['index.html', 'manifest.webmanifest', 'icon.svg', 'icon-192.png']) {
  if (existsSync(`${root}page/${file}`)) copyFileSync(`${root}page/${file}`, `${web}/${file}`);
}
const entryModule = await build({ ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js' });
// Which source files each output holds and what it imports: the tests check from it that a
// client command's files stay free of what it does not need.
const parts = [client, program, save, entry, entryModule];
const meta = {
  inputs: Object.assign({}, ...parts.map((p) => p.metafile.inputs)),
  outputs: Object.assign({}, ...parts.map((p) => p.metafile.outputs)),
};
writeFileSync(`${root}dist/bundle-meta.json`, `${JSON.stringify(meta)}\n`);
