// `tmux -V` and the minimum supported version (3.2).
import { TmuxTooOldError } from './errors.js';
import type { TmuxRun } from './runner.js';

export interface TmuxVersion {
  /** As printed, e.g. `tmux 3.3a`. */
  raw: string;
  /** null when the version has no number (`tmux master`): assumed new enough. */
  major: number | null;
  minor: number | null;
}

export const MIN_VERSION = { major: 3, minor: 2 } as const;

/** Pure: `tmux 3.3a` → 3/3, `tmux next-3.4` → 3/4, `tmux master` → null/null. */
export function parseVersion(raw: string): TmuxVersion {
  const text = raw.trim();
  const m = /(\d+)\.(\d+)/.exec(text);
  return { raw: text, major: m ? Number(m[1]) : null, minor: m ? Number(m[2]) : null };
}

export function isSupported(v: TmuxVersion, min: { major: number; minor: number } = MIN_VERSION): boolean {
  if (v.major === null || v.minor === null) return true;
  return v.major > min.major || (v.major === min.major && v.minor >= min.minor);
}

/** Runs `tmux -V` (needs no server). Throws TmuxMissingError when tmux is not installed. */
export async function version(tmux: TmuxRun): Promise<TmuxVersion> {
  return parseVersion(await tmux.run(['-V']));
}

/** version(), or TmuxTooOldError for anything older than 3.2. */
export async function assertVersion(tmux: TmuxRun): Promise<TmuxVersion> {
  const v = await version(tmux);
  if (!isSupported(v)) throw new TmuxTooOldError(v.raw, `${MIN_VERSION.major}.${MIN_VERSION.minor}`);
  return v;
}

/**
 * assertVersion for a version read with other queries (the `#{version}` format, `3.3a`): a tmux
 * without that format prints nothing, and is asked with `-V`.
 */
export async function assertVersionOf(tmux: TmuxRun, formatted: string): Promise<TmuxVersion> {
  if (formatted === '') return assertVersion(tmux);
  const v = parseVersion(`tmux ${formatted}`);
  if (!isSupported(v)) throw new TmuxTooOldError(v.raw, `${MIN_VERSION.major}.${MIN_VERSION.minor}`);
  return v;
}
