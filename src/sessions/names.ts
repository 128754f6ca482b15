// Pure naming rules of session files: file names
// from session names, SESSION path-vs-name, directory expansion, recovery file names.
import path from 'node:path';
import { SessionUsageError } from './errors.js';

/** At most this many UTF-8 bytes of sanitised name before `.json` (255 = NAME_MAX in all). */
export const MAX_FILE_STEM_BYTES = 250;

// Control characters (C0, DEL, C1) and the characters that could make a session name a path,
// a hidden file or a name some file system refuses: each becomes `_`.
const UNSAFE_IN_FILE_NAME = /[\p{Cc}*"/\\<>:|?.]/gu;

/**
 * `<sanitised name>.json`: trimmed, control characters and `* " / \ < > : | ? .` turned into
 * `_`, cut to at most 250 UTF-8 bytes without splitting a character. An empty name is a usage
 * error.
 */
export function sessionFileName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new SessionUsageError('a session name must not be empty');
  return `${truncateUtf8(trimmed.replace(UNSAFE_IN_FILE_NAME, '_'), MAX_FILE_STEM_BYTES)}.json`;
}

/** The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes, whole characters only. */
export function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) break;
    bytes += size;
    out += ch;
  }
  return out;
}

/** SESSION/SNAPSHOT is a path when it starts with `/`, `./`, `../` or `~`, or ends in `.json`. */
export function isSessionPath(arg: string): boolean {
  return /^(?:\/|\.\/|\.\.\/|~)/.test(arg) || arg.endsWith('.json');
}

/**
 * A recipe directory or session path as an absolute path: `~` and `~/x` against `home`,
 * relative ones against `cwd`, normalised. `~user` is not expanded (it is a relative name).
 */
export function expandDir(dir: string, home: string, cwd: string): string {
  if (dir === '~') return path.resolve(home);
  if (dir.startsWith('~/')) return path.resolve(home, dir.slice(2));
  return path.resolve(cwd, dir);
}

/**
 * The written form of an absolute directory: `~` for HOME itself, `~/…` under it, else as is.
 * A HOME of `/` (or empty) abbreviates nothing.
 */
export function abbreviateDir(dir: string, home: string): string {
  const h = home.length > 1 ? home.replace(/\/+$/, '') : '';
  if (h === '' || h === '/') return dir;
  if (dir === h || dir === `${h}/`) return '~';
  if (dir.startsWith(`${h}/`)) return `~/${dir.slice(h.length + 1)}`;
  return dir;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `YYYYMMDD-HHMMSS-<pid>.json` from the supervisor's start time, in UTC. */
export function recoveryFileName(startedAt: Date, pid: number): string {
  const d = startedAt;
  const date = `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return `${date}-${time}-${pid}.json`;
}

/** `autosaved YYYY-MM-DD HH:MM` (UTC), the name of a recovery snapshot. */
export function recoveryLabel(startedAt: Date): string {
  const d = startedAt;
  return (
    `autosaved ${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  );
}

const RECOVERY_FILE = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-([1-9]\d{0,9})\.json$/;

/** The start time and pid a recovery file name encodes, or null for any other name. */
export function parseRecoveryFileName(file: string): { startedAt: Date; pid: number } | null {
  const m = RECOVERY_FILE.exec(file);
  if (m === null) return null;
  const [y, mo, d, h, mi, s, pid] = m.slice(1).map(Number) as [number, number, number, number, number, number, number];
  const startedAt = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Reject names like 20261399-…: the date must survive a round trip.
  if (recoveryFileName(startedAt, pid) !== file) return null;
  return { startedAt, pid };
}
