// The built bin is one esbuild bundle split per command (scripts/bundle.mjs): what a command
// loads at start is dist/cli.js, its statically imported chunks, and its own command chunk
// with theirs; `ls` is the one file dist/ls-client.js, and `save` the one file
// dist/chunks/save-client.js after the command table. These tests read esbuild's metafile and keep the client commands' start free
// of what only the supervisor needs (zod, chokidar, the dashboard, the supervisor itself).
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

/** Every source file loaded before the command's code runs: these chunks' static imports, transitively. */
function loadedSources(...entryPoints: string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const edge of meta.outputs[file]?.imports ?? []) if (edge.kind === 'import-statement' && !edge.external) visit(edge.path);
  };
  visit('dist/cli.js');
  for (const entryPoint of entryPoints) {
    const chunk = Object.keys(meta.outputs).find((file) => meta.outputs[file]?.entryPoint === entryPoint);
    expect(chunk, `a chunk for ${entryPoint}`).toBeDefined();
    visit(chunk as string);
  }
  return [...seen].flatMap((file) => Object.keys(meta.outputs[file]?.inputs ?? {}));
}

/** What every command but `ls` loads first: commander and the command table. */
const PROGRAM = 'src/commands/program.ts';

const SUPERVISOR_ONLY = [/node_modules\/zod\//, /node_modules\/chokidar\//, /^src\/dashboard\//, /^src\/fleet\/(supervisor\/supervisor|lifecycle\/run-fleet)\.ts/, /^src\/tmux\/runner/];

describe('the bundled bin', () => {
  it('is dist/cli.js with the command modules as chunks loaded on demand', () => {
    const entry = meta.outputs['dist/cli.js'];
    expect(entry?.entryPoint).toBe('src/cli.ts');
    const onDemand = (file: string | undefined) =>
      (file === undefined ? [] : meta.outputs[file]?.imports ?? []).filter((edge) => edge.kind === 'dynamic-import').map((edge) => edge.path);
    const entryOf = (file: string) => meta.outputs[file]?.entryPoint;
    expect(onDemand('dist/cli.js').map(entryOf)).toContain(PROGRAM);
    expect(onDemand('dist/cli.js')).toContain('./ls-client.js');
    const program = onDemand('dist/cli.js').find((file) => entryOf(file) === PROGRAM);
    expect(onDemand(program).map(entryOf)).toEqual(expect.arrayContaining(['src/commands/tasks.ts', 'src/commands/up.ts']));
    expect(onDemand(program)).toContain('./save-client.js');
  });

  it.each([
    ['--version and --help', []],
    ['run, kill, rm, tag, rename, group, rerun', ['src/commands/tasks.ts']],
    ['save', ['src/commands/save-client.ts']],
    ['load and recover', ['src/commands/load.ts']],
    ['sessions', ['src/commands/sessions.ts']],
    ['explain', ['src/commands/explain.ts']],
  ])('starts %s without zod, chokidar, the dashboard or the supervisor', (_label, entryPoints) => {
    const sources = loadedSources(PROGRAM, ...entryPoints);
    expect(sources).toContain('src/cli.ts');
    expect(sources.filter((source) => SUPERVISOR_ONLY.some((pattern) => pattern.test(source)))).toEqual([]);
  });

  it('starts ls and ls --json without commander: the entry runs them itself', () => {
    expect(loadedSources().filter((source) => source.includes('node_modules/commander/'))).toEqual([]);
    const ls = loadedSources('src/ls-client.ts');
    expect(ls).toEqual(expect.arrayContaining(['src/ls-client.ts', 'src/commands/tasks.ts', 'src/control/client.ts']));
    expect(ls).not.toContain(PROGRAM);
    // One file: it imports no chunk, only Node's built-ins.
    expect(meta.outputs['dist/ls-client.js']?.imports.filter((edge) => !edge.path.startsWith('node:'))).toEqual([]);
    expect(ls.filter((source) => source.includes('node_modules/'))).toEqual([]);
    expect(loadedSources(PROGRAM).filter((source) => source.includes('node_modules/commander/')).length).toBeGreaterThan(0);
  });

  it('starts save from one file after the command table', () => {
    expect(meta.outputs['dist/chunks/save-client.js']?.entryPoint).toBe('src/commands/save-client.ts');
    expect(meta.outputs['dist/chunks/save-client.js']?.imports.filter((edge) => !edge.path.startsWith('node:'))).toEqual([]);
  });

  it('keeps only the part of zod fleetcom uses (a namespace import; `import { z }` kept all 750 kB)', () => {
    const zodBytes = Object.values(meta.outputs)
      .flatMap((output) => Object.entries(output.inputs as Record<string, { bytesInOutput?: number }>))
      .filter(([source]) => source.includes('node_modules/zod/'))
      .reduce((sum, [, input]) => sum + (input.bytesInOutput ?? 0), 0);
    expect(zodBytes).toBeGreaterThan(0);
    expect(zodBytes).toBeLessThan(300_000);
  });

  it('starts up with the supervisor (the check above can see it), the dashboard and chokidar only on demand', () => {
    const sources = loadedSources(PROGRAM, 'src/commands/up.ts');
    expect(sources.filter((source) => SUPERVISOR_ONLY.some((pattern) => pattern.test(source))).length).toBeGreaterThan(0);
    // A headless supervisor never draws: the dashboard is a chunk of its own, imported for a
    // terminal; chokidar comes with the first capture watch (a fleet of plain commands has none).
    expect(sources.filter((source) => source.startsWith('src/dashboard/') || source.includes('node_modules/chokidar/'))).toEqual([]);
    const dashboard = Object.keys(meta.outputs).find((file) => meta.outputs[file]?.entryPoint === 'src/dashboard/terminal.ts');
    expect(dashboard).toBeDefined();
  });
});
