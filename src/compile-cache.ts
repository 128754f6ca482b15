// V8's compile cache for fleetcom's own files (Node 22.1+: module.enableCompileCache): a start
// that finds the code of its modules compiled before skips most of their compilation, which
// is most of what a client command costs over `node -e 0` (docs/performance.md). Node 20 has
// no such cache and starts without it.
//
// The cache holds code that Node runs, so it is used only from a directory of this user's
// that nobody else can write into (fs-safety.ts's rules, 0700 when made here): a cache dir
// owned by another user, a symlink or a group-writable one is not used, and neither is a
// read-only one (Node then reports a failure and compiles as usual). Nothing about the cache
// is ever an error of the command.
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { safeDirProblem } from './fs-safety.js';
import { cacheDir, userHome, type Env } from './paths.js';

interface CompileCacheApi {
  enableCompileCache?: (dir: string) => { status: number; message?: string; directory?: string };
}

/** `<cache dir>/v8`: beside the capture root (paths.ts), one per user. */
export function compileCacheDir(env: Env): string {
  return join(cacheDir(env, process.platform, userHome(env)), 'v8');
}

/**
 * Turns the cache on when this Node has it and its directory is safe; says which it did
 * ('on', or why not) for the tests and FLEETCOM_DEBUG. Set NODE_DISABLE_COMPILE_CACHE=1 to
 * start without it (Node's own switch).
 */
export function startCompileCache(env: Env, api: CompileCacheApi = nodeModule as CompileCacheApi, uid: number | undefined = process.getuid?.()): string {
  if (api.enableCompileCache === undefined) return 'this Node has no compile cache';
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return 'NODE_DISABLE_COMPILE_CACHE=1';
  const dir = compileCacheDir(env);
  try {
    const problem = safeDirProblem(dir, uid);
    if (problem !== null) return `${dir} ${problem}`;
    const result = api.enableCompileCache(dir);
    return result.message ?? (result.directory !== undefined ? 'on' : `status ${result.status}`);
  } catch (error) {
    return `${dir}: ${(error as Error).message}`;
  }
}
