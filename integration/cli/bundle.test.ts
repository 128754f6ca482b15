// The built bin is one esbuild bundle split per command (scripts/bundle.mjs): what a command
// loads at start is dist/cli.js, its statically imported chunks, and its own command chunk
// with theirs. These tests read esbuild's metafile and keep the client commands' start free
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

/** Every source file loaded before the command's code runs: static imports, transitively. */
function loadedSources(entryPoint: string | null): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const edge of meta.outputs[file]?.imports ?? []) if (edge.kind === 'import-statement' && !edge.external) visit(edge.path);
  };
  visit('dist/cli.js');
  if (entryPoint !== null) {
    const chunk = Object.keys(meta.outputs).find((file) => meta.outputs[file]?.entryPoint === entryPoint);
    expect(chunk, `a chunk for ${entryPoint}`).toBeDefined();
    visit(chunk as string);
  }
  return [...seen].flatMap((file) => Object.keys(meta.outputs[file]?.inputs ?? {}));
}

const SUPERVISOR_ONLY = [/node_modules\/zod\//, /node_modules\/chokidar\//, /^src\/dashboard\//, /^src\/fleet\/supervisor/, /^src\/tmux\/runner/];

describe('the bundled bin', () => {
  it('is dist/cli.js with the command modules as chunks loaded on demand', () => {
    const entry = meta.outputs['dist/cli.js'];
    expect(entry?.entryPoint).toBe('src/cli.ts');
    const onDemand = entry?.imports.filter((edge) => edge.kind === 'dynamic-import').map((edge) => meta.outputs[edge.path]?.entryPoint);
    expect(onDemand).toEqual(expect.arrayContaining(['src/commands/tasks.ts', 'src/commands/save.ts', 'src/commands/up.ts']));
  });

  it.each([
    ['--version and --help', null],
    ['ls, run, kill, rm, tag, rename, group, rerun', 'src/commands/tasks.ts'],
    ['save', 'src/commands/save.ts'],
    ['load and recover', 'src/commands/load.ts'],
    ['sessions', 'src/commands/sessions.ts'],
    ['explain', 'src/commands/explain.ts'],
  ])('starts %s without zod, chokidar, the dashboard or the supervisor', (_label, entryPoint) => {
    const sources = loadedSources(entryPoint);
    expect(sources).toContain('src/cli.ts');
    expect(sources.filter((source) => SUPERVISOR_ONLY.some((pattern) => pattern.test(source)))).toEqual([]);
  });

  it('starts up with the supervisor (the check above can see it)', () => {
    const sources = loadedSources('src/commands/up.ts');
    expect(sources.filter((source) => SUPERVISOR_ONLY.some((pattern) => pattern.test(source))).length).toBeGreaterThan(0);
  });
});
