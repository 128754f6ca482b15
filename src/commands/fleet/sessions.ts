// `fleetcom sessions [--json]`: saved sessions, then recovery snapshots, newest first.
import path from 'node:path';
import type { Deps } from '../../deps.js';
import { listSessions, type SessionListing } from '../../sessions/index.js';
import { formatAge } from '../../format-age.js';
import { sessionDirOf } from './recipe-io.js';

/** `sessions --json`: one document, stable camelCase keys. */
export function sessionsJson(listing: SessionListing): unknown {
  return {
    saved: listing.saved.map((s) => ({ name: s.name, file: s.file, tasks: s.tasks, modified: s.modified.toISOString(), error: s.error })),
    recovery: listing.recovery.map((r) => ({
      file: r.file,
      label: r.label,
      tasks: r.tasks,
      modified: r.modified.toISOString(),
      closed: r.closed,
      pid: r.pid,
      startedAt: r.startedAt.toISOString(),
      error: r.error,
    })),
  };
}

/** `YYYY-MM-DD HH:MM` in UTC, like the snapshot labels. */
function formatTime(date: Date): string {
  return date.toISOString().slice(0, 16).replace('T', ' ');
}

const width = (text: string) => [...text].length;

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((r) => width(r[col] ?? '')))) ?? [];
  const line = (r: string[]) => r.map((cell, col) => (col === r.length - 1 ? cell : cell + ' '.repeat((widths[col] ?? 0) - width(cell)))).join('  ');
  return `${rows.map(line).join('\n')}\n`;
}

const count = (n: number | null) => (n === null ? '?' : String(n));

export function formatSessions(listing: SessionListing, now: number): string {
  let out = '';
  if (listing.saved.length > 0) {
    out += table([
      ['SESSION', 'TASKS', 'MODIFIED', 'FILE'],
      ...listing.saved.map((s) => [s.name, count(s.tasks), formatTime(s.modified), s.error ? `${s.file} (${s.error})` : s.file]),
    ]);
  }
  if (listing.recovery.length > 0) {
    if (out !== '') out += '\n';
    out += table([
      // SNAPSHOT is the name `fleetcom recover` takes; --json has the full path.
      ['RECOVERY', 'AGE', 'TASKS', 'SNAPSHOT'],
      ...listing.recovery.map((r) => [
        `${r.label}${r.closed ? ' (closed)' : ''}`,
        formatAge(now - r.modified.getTime()),
        count(r.tasks),
        r.error ? `${path.basename(r.file)} (${r.error})` : path.basename(r.file, '.json'),
      ]),
    ]);
  }
  return out;
}

export async function runSessions(opts: { json?: boolean }, deps: Deps): Promise<number> {
  const dir = sessionDirOf(deps);
  const listing = await listSessions(dir);
  if (opts.json) {
    deps.stdout.write(`${JSON.stringify(sessionsJson(listing), null, 2)}\n`);
    return 0;
  }
  if (listing.saved.length === 0 && listing.recovery.length === 0) {
    deps.stderr.write(`no saved sessions or recovery snapshots in ${dir}\n`);
    return 0;
  }
  deps.stdout.write(formatSessions(listing, deps.now()));
  return 0;
}
