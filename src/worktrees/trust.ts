// A repository's own setup script (`.fleetcom/worktree-setup`) runs only after the user trusted
// that exact file: `fleetcom trust <repo>` records its sha256 per repository, and a file whose
// hash is not recorded (a changed one too) is untrusted.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describeFsError, FleetError, isNotFound } from '../errors.js';
import { makePrivateDirs, readOwnFile, writeFileAtomicSync } from '../fs-safety.js';

export const SETUP_SCRIPT = '.fleetcom/worktree-setup';

type Trusted = Record<string, string[]>;

function readTrusted(file: string): Trusted {
  const text = readOwnFile(file);
  if (text === null) return {};
  try {
    const doc = JSON.parse(text) as { version?: unknown; repos?: unknown };
    const repos = doc.repos as Trusted;
    if (doc.version !== 1 || typeof repos !== 'object' || repos === null) throw new Error('expected {"version": 1, "repos": {...}}');
    for (const [repo, hashes] of Object.entries(repos)) {
      if (!Array.isArray(hashes) || !hashes.every((h) => typeof h === 'string')) throw new Error(`repos[${JSON.stringify(repo)}]: expected a list of hashes`);
    }
    return repos;
  } catch (error) {
    throw new FleetError(`${file}: ${(error as Error).message}; fix or move it away`);
  }
}

/** The sha256 of a checkout's setup script, or null when it has none. */
export function scriptHash(checkout: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path.join(checkout, SETUP_SCRIPT))).digest('hex');
  } catch (error) {
    if (isNotFound(error)) return null;
    throw new FleetError(`${path.join(checkout, SETUP_SCRIPT)}: cannot be read: ${describeFsError(error)}`);
  }
}

export function isTrusted(file: string, repo: string, hash: string): boolean {
  return readTrusted(file)[repo]?.includes(hash) ?? false;
}

/** Records `hash` as trusted for `repo`. */
export function trust(file: string, repo: string, hash: string): void {
  const trusted = readTrusted(file);
  const hashes = trusted[repo] ?? [];
  if (!hashes.includes(hash)) trusted[repo] = [...hashes, hash];
  makePrivateDirs(path.dirname(file));
  writeFileAtomicSync(file, `${JSON.stringify({ version: 1, repos: trusted }, null, 2)}\n`);
}
