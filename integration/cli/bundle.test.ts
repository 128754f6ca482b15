// The built bin (scripts/bundle.mjs): dist/cli.cjs (and dist/cli.js, the same as an ES module)
// turns the compile cache on and requires dist/chunks/client.cjs, one CommonJS file that runs
// the hot commands (commands/hot-path.ts) itself;
// every other command line goes to dist/chunks/program.js (commander and the command table),
// split per command, `save` the one file dist/chunks/save-client.js after it. These tests read
// esbuild's metafile and keep each command's start free of what it does not need: the hot
// path of every library, every command of zod, chokidar, the dashboard and the supervisor.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

interface Output {
  entryPoint?: string;
  inputs: Record<string, unknown>;
  imports: { path: string; kind: string; external?: boolean }[];
}

const meta = JSON.parse(readFileSync(join(repoRoot, 'dist', 'bundle-meta.json'), 'utf8')) as { outputs: Record<string, Output> };

const STATIC = new Set(['import-statement', 'require-call']);

/** Every source file loaded before the command's code runs: these outputs' static imports, transitively. */
function loadedSources(...files: string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const edge of meta.outputs[file]?.imports ?? []) if (STATIC.has(edge.kind) && !edge.external) visit(edge.path);
  };
  for (const file of ['dist/cli.cjs', 'dist/chunks/client.cjs', ...files]) visit(file);
  return [...seen].flatMap((file) => Object.keys(meta.outputs[file]?.inputs ?? {}));
}

/** The output file of a source file built as an entry or a chunk of its own. */
function outputOf(entryPoint: string): string {
  const file = Object.keys(meta.outputs).find((f) => meta.outputs[f]?.entryPoint === entryPoint);
  expect(file, `an output for ${entryPoint}`).toBeDefined();
  return file as string;
}

const onDemand = (file: string) => (meta.outputs[file]?.imports ?? []).filter((edge) => edge.kind === 'dynamic-import').map((edge) => edge.path);
/** Only Node's built-ins and no other file: what a one-file part of the build imports. */
const oneFile = (file: string) => (meta.outputs[file]?.imports ?? []).filter((edge) => !edge.path.startsWith('node:') && STATIC.has(edge.kind));

/** What every command but the hot ones loads first: commander and the command table. */
const PROGRAM = 'dist/chunks/program.js';

const MCP_ENTRY = 'src/commands/orchestration/mcp.ts';
const SDK = /node_modules\/@modelcontextprotocol\//;

const SUPERVISOR_ONLY = [/node_modules\/zod\//, /node_modules\/chokidar\//, /^src\/dashboard\//, /^src\/fleet\/(supervisor\/supervisor|lifecycle\/run-fleet)\.ts/, /^src\/tmux\/runner/];

describe('the bundled bin', () => {
  it('is dist/cli.cjs (dist/cli.js the same), which requires the client file only once the compile cache is on', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin).toEqual({ fleetcom: 'dist/cli.cjs' });
    for (const entry of ['dist/cli.cjs', 'dist/cli.js']) {
      expect(meta.outputs[entry]?.entryPoint).toBe('src/cli.ts');
      expect(oneFile(entry)).toEqual([]);
      expect(Object.keys(meta.outputs[entry]?.inputs ?? {})).toContain('src/compile-cache.ts');
      const text = readFileSync(join(repoRoot, entry), 'utf8');
      expect(text.search(/\(["']\.\/chunks\/client\.cjs["']\)/)).toBeGreaterThan(text.indexOf('startCompileCache(process.env)'));
    }
  });

  it('runs the hot commands from the one file dist/chunks/client.cjs, without any library', () => {
    expect(meta.outputs['dist/chunks/client.cjs']?.entryPoint).toBe('src/client.ts');
    expect(oneFile('dist/chunks/client.cjs')).toEqual([]);
    const hot = loadedSources();
    expect(hot).toEqual(expect.arrayContaining(['src/client.ts', 'src/commands/hot-path.ts', 'src/commands/tasks/tasks.ts', 'src/control/client.ts', 'src/completion/candidates.ts']));
    expect(hot.filter((source) => source.includes('node_modules/'))).toEqual([]);
    expect(hot).not.toContain('src/commands/program.ts');
    // What the hot path imports on demand and does not run itself is a file of the split part.
    expect([...new Set(onDemand('dist/chunks/client.cjs'))].sort()).toEqual(['./hosts-next.js', './hosts-save.js', './program.js', './recipe-io.js', './remote.js', './save-client.js', './send.js', './sessions.js', './worktree-run.js']);
    for (const name of onDemand('dist/chunks/client.cjs')) expect(meta.outputs[`dist/chunks/${name.slice(2)}`], name).toBeDefined();
  });

  it('runs every other command through the command table, each command a chunk loaded on demand', () => {
    expect(meta.outputs[PROGRAM]?.entryPoint).toBe('src/commands/program.ts');
    expect(loadedSources(PROGRAM).filter((source) => source.includes('node_modules/commander/')).length).toBeGreaterThan(0);
    const chunks = onDemand(PROGRAM).map((file) => (file.startsWith('./') ? `dist/chunks/${file.slice(2)}` : file));
    expect(chunks.map((file) => meta.outputs[file]?.entryPoint)).toEqual(expect.arrayContaining(['src/commands/tasks/tasks.ts', 'src/commands/fleet/up.ts']));
    expect(onDemand(PROGRAM)).toContain('./save-client.js');
  });

  it.each([
    ['--help', []],
    ['run, kill, rm, tag, rename, group', ['src/commands/tasks/tasks.ts']],
    ['load and recover', ['src/commands/fleet/load.ts']],
    ['sessions', ['src/commands/fleet/sessions.ts']],
    ['explain', ['src/commands/tasks/explain.ts']],
  ])('starts %s without zod, chokidar, the dashboard or the supervisor', (_label, entryPoints) => {
    const sources = loadedSources(PROGRAM, ...entryPoints.map(outputOf));
    expect(sources).toContain('src/cli.ts');
    expect(sources.filter((source) => SUPERVISOR_ONLY.some((pattern) => pattern.test(source)))).toEqual([]);
  });

  it('serves mcp from a chunk of its own with the MCP SDK, which no other command loads', () => {
    const mcp = outputOf(MCP_ENTRY);
    expect(onDemand(PROGRAM)).toContain(mcp);
    expect(loadedSources(PROGRAM, mcp).filter((source) => SDK.test(source)).length).toBeGreaterThan(0);
    for (const entry of ['src/commands/tasks/tasks.ts', 'src/commands/fleet/up.ts', 'src/commands/orchestration/skill.ts']) {
      expect(loadedSources(PROGRAM, outputOf(entry)).filter((source) => SDK.test(source)), entry).toEqual([]);
    }
    expect(loadedSources().filter((source) => SDK.test(source) || source.startsWith('src/mcp/')), 'the hot path').toEqual([]);
  });

  it('starts save from one file after the command table', () => {
    expect(meta.outputs['dist/chunks/save-client.js']?.entryPoint).toBe('src/commands/fleet/save-client.ts');
    expect(oneFile('dist/chunks/save-client.js')).toEqual([]);
  });

  it('keeps only the part of zod fleetcom uses (a namespace import; `import { z }` kept all 750 kB)', () => {
    // The MCP SDK brings zod's v3 too (its zod-compat), in the chunk only `fleetcom mcp` loads (below).
    const zodBytes = Object.values(meta.outputs)
      .filter((output) => output.entryPoint !== MCP_ENTRY)
      .flatMap((output) => Object.entries(output.inputs as Record<string, { bytesInOutput?: number }>))
      .filter(([source]) => source.includes('node_modules/zod/'))
      .reduce((sum, [, input]) => sum + (input.bytesInOutput ?? 0), 0);
    expect(zodBytes).toBeGreaterThan(0);
    expect(zodBytes).toBeLessThan(300_000);
  });

  it('starts up with the supervisor (the check above can see it), the dashboard and chokidar only on demand', () => {
    const sources = loadedSources(PROGRAM, outputOf('src/commands/fleet/up.ts'));
    expect(sources.filter((source) => SUPERVISOR_ONLY.some((pattern) => pattern.test(source))).length).toBeGreaterThan(0);
    // A headless supervisor never draws: the dashboard is a chunk of its own, imported for a
    // terminal; chokidar comes with the first capture watch (a fleet of plain commands has none).
    expect(sources.filter((source) => source.startsWith('src/dashboard/') || source.includes('node_modules/chokidar/'))).toEqual([]);
    const dashboard = Object.keys(meta.outputs).find((file) => meta.outputs[file]?.entryPoint === 'src/dashboard/terminal.ts');
    expect(dashboard).toBeDefined();
  });
});
