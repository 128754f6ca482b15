// The one import direction of src/ (ARCHITECTURE.md): a module imports only from its own
// directory or a lower layer, and no chain of imports (type-only ones included) comes back to
// where it started. Read from the source text, so a new back-edge fails here before review.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Top to bottom. A directory of src/, or a file directly in src/ by its name. */
const LAYERS: readonly (readonly string[])[] = [
  ['cli.ts'],
  ['client.ts'],
  ['commands'],
  ['dashboard', 'web', 'mcp'],
  ['fleet', 'doctor', 'config', 'completion', 'history'],
  ['control', 'capture', 'sessions', 'ownership', 'remote', 'worktrees'],
  ['harness', 'tmux'],
  ['deps.ts', 'errors.ts', 'report.ts', 'paths.ts', 'fs-safety.ts', 'format-age.ts', 'warnings.ts', 'compile-cache.ts', 'worktree-record.ts'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Relative specifiers of static imports, re-exports and dynamic imports. */
export function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm)].map((m) => m[1]!);
}

function unitOf(file: string): string {
  const [first = ''] = relative(SRC, file).split('/');
  return first;
}

function rankOf(unit: string): number {
  const rank = LAYERS.findIndex((layer) => layer.includes(unit));
  if (rank < 0) throw new Error(`src/${unit} has no layer: add it to LAYERS here and to ARCHITECTURE.md`);
  return rank;
}

function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = importsOf(readFileSync(file, 'utf8')).map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
    edges.set(file, targets);
  }
  return edges;
}

/** Every import that goes up a layer, as `from -> to`. */
export function backEdges(edges: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of edges) {
    for (const target of targets) {
      if (rankOf(unitOf(target)) < rankOf(unitOf(file))) found.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  return found;
}

/** One cycle per strongly connected group found by depth-first search, as a path of files. */
export function cycles(edges: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const target of edges.get(file) ?? []) {
      if (state.get(target) === 'open') {
        found.push([...stack.slice(stack.indexOf(target)), target].map((f) => relative(SRC, f)).join(' -> '));
      } else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('imports in src/', () => {
  const edges = graph();

  it('reads the imports of every source file (the walk itself works)', () => {
    expect(edges.size).toBeGreaterThan(50);
    expect(edges.get(join(SRC, 'client.ts'))).toContain(join(SRC, 'commands/program.ts'));
    expect(importsOf("import type { A } from '../a.js';\nexport * from './b.js';\nconst c = () => import('./c.js');")).toEqual(['../a.js', './b.js', './c.js']);
  });

  it('never go up a layer', () => {
    expect(backEdges(edges)).toEqual([]);
  });

  it('form no cycle', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('would report a back-edge and a cycle (the checks can fail)', () => {
    const a = join(SRC, 'tmux/a.ts');
    const b = join(SRC, 'commands/b.ts');
    const planted = new Map([[a, [b]], [b, [a]]]);
    expect(backEdges(planted)).toEqual(['tmux/a.ts -> commands/b.ts']);
    expect(cycles(planted)).toEqual(['tmux/a.ts -> commands/b.ts -> tmux/a.ts']);
  });
});
