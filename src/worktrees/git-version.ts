// The git `finish` needs: 2.38 or later, the first with `git merge-tree --write-tree` (the merge
// computed without touching a checkout, which is how a conflict is found before anything
// changes). An older git is named and refused; its merge is never guessed.
import { git } from './git.js';

export const MERGE_TREE_GIT: readonly [number, number] = [2, 38];

/** `git version 2.39.5` (also `… (Apple Git-143)`, `2.45.0.windows.1`) → [2, 39, 5]; null when unreadable. */
export function parseGitVersion(text: string): [number, number, number] | null {
  const m = /^git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  return m === null ? null : [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

export function atLeast(version: readonly number[], wanted: readonly number[]): boolean {
  for (let i = 0; i < wanted.length; i += 1) {
    const have = version[i] ?? 0;
    const want = wanted[i] ?? 0;
    if (have !== want) return have > want;
  }
  return true;
}

/** Why this git cannot finish a task, or null when it can. */
export async function mergeTreeProblem(): Promise<string | null> {
  const said = await git(['version']);
  const version = parseGitVersion(said);
  if (version === null) return `git version said ${JSON.stringify(said.trim().slice(0, 60))}, which fleetcom cannot read; it needs git ${MERGE_TREE_GIT.join('.')} or later`;
  if (!atLeast(version, MERGE_TREE_GIT)) {
    return `git ${version.join('.')} is older than ${MERGE_TREE_GIT.join('.')}, the first with git merge-tree --write-tree (how fleetcom finds conflicts before it changes anything); upgrade git`;
  }
  return null;
}
