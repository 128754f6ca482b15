// Small readers shared by the fake-agent tests.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '../helpers/wait-for.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function exists(path: string): Promise<boolean> {
  return readdir(path).then(() => true, async () => readFile(path).then(() => true, () => false));
}

/** JSON lines of a file (empty when it does not exist). */
export async function jsonLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Waits until `path` holds at least `count` JSON lines and returns them. */
export function waitForLines(path: string, count: number): Promise<Record<string, unknown>[]> {
  return waitFor(async () => {
    const lines = await jsonLines(path);
    return lines.length >= count ? lines : false;
  }, { what: `${count} JSON lines in ${path}` });
}

/** Every file under `root`, relative, sorted ([] when root is missing). */
export async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1)).sort();
}

/** A claude project slug: every character that is not an ASCII letter or digit becomes `-`. */
export function claudeSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}
