// V8's compile cache is turned on only in a directory of this user's that nobody else can
// write into, and nothing about it can fail a command.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheDir, startCompileCache } from '../src/compile-cache.js';

function world() {
  const dir = mkdtempSync(join(tmpdir(), 'fleetcom-cc-'));
  const env = { HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') };
  const asked: string[] = [];
  const api = { enableCompileCache: (d: string) => (asked.push(d), { status: 1, directory: d }) };
  return { dir, env, asked, api };
}

const uid = process.getuid?.();

describe('the compile cache', () => {
  it('is <cache dir>/v8, made 0700 when missing, and turned on there', () => {
    const w = world();
    expect(compileCacheDir(w.env)).toBe(join(w.dir, 'cache', 'fleetcom', 'v8'));
    expect(startCompileCache(w.env, w.api, uid)).toBe('on');
    expect(w.asked).toEqual([join(w.dir, 'cache', 'fleetcom', 'v8')]);
    expect(lstatSync(w.asked[0]!).mode & 0o777).toBe(0o700);
  });

  it('is not used in a directory another user owns, others can write, or that is a symlink', () => {
    const w = world();
    const dir = compileCacheDir(w.env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    expect(startCompileCache(w.env, w.api, (uid ?? 0) + 1)).toMatch(/is owned by uid/);
    chmodSync(dir, 0o777);
    expect(startCompileCache(w.env, w.api, uid)).toMatch(/is writable by group/);
    expect(w.asked).toEqual([]);
  });

  it('never fails the command: a path that cannot be a directory, no cache in this Node, or switched off', () => {
    const w = world();
    writeFileSync(join(w.dir, 'cache'), 'a file where the cache dir would be');
    expect(startCompileCache(w.env, w.api, uid)).toMatch(/cannot be (created|inspected) \(ENOTDIR\)/);
    expect(startCompileCache(world().env, {}, uid)).toBe('this Node has no compile cache');
    expect(startCompileCache({ ...world().env, NODE_DISABLE_COMPILE_CACHE: '1' }, w.api, uid)).toBe('NODE_DISABLE_COMPILE_CACHE=1');
    const failing = { enableCompileCache: () => ({ status: 0, message: 'Cannot create cache directory: EROFS' }) };
    expect(startCompileCache(world().env, failing, uid)).toBe('Cannot create cache directory: EROFS');
    expect(w.asked).toEqual([]);
  });
});
