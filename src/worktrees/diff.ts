// `fleetcom diff TASK`: the worktree's change against its recorded base, untracked files
// included — read through a scratch copy of the index where they are marked intent-to-add, so
// the worktree's own index is never touched.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorktreeRecord } from '../worktree-record.js';
import { git } from './git.js';

export async function worktreeDiff(record: WorktreeRecord, opts: { stat: boolean; color: boolean }): Promise<string> {
  const dir = record.path;
  const indexFile = path.resolve(dir, (await git(['-C', dir, 'rev-parse', '--git-path', 'index'])).trim());
  const scratch = mkdtempSync(path.join(tmpdir(), 'fleetcom-diff-'));
  try {
    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    if (existsSync(indexFile)) copyFileSync(indexFile, env.GIT_INDEX_FILE);
    const untracked = await git(['-C', dir, 'ls-files', '-z', '--others', '--exclude-standard', '--full-name', ':/'], { env });
    if (untracked !== '') {
      await git(['-C', dir, 'add', '--intent-to-add', '--pathspec-from-file=-', '--pathspec-file-nul'], { env, input: untracked.split('\0').filter((p) => p !== '').map((p) => `:(top,literal)${p}`).join('\0') });
    }
    return await git(['-C', dir, 'diff', opts.color ? '--color=always' : '--no-color', ...(opts.stat ? ['--stat'] : []), record.base, '--'], { env, deadlineMs: 120_000 });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
