// The allowed values of settings that the CLI's flags check too. No zod here: commands/register.ts
// imports this on every start, and the schema is loaded only by commands that read the file.

/** A tmux key name as `bind-key` takes it (`r`, `C-r`, `F5`), or `none` for no binding. */
export const TMUX_KEY = /^[^\s'"]{1,16}$/;

export const GROUP_BY = ['state', 'dir', 'group'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** The default of `worktreeDir`: beside the repository, out of its tree (docs/worktrees.md says why). */
export const DEFAULT_WORKTREE_DIR = '{repo-root}/../{repo}.worktrees/{branch}';
