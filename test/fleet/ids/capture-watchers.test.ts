// A watched capture namespace removed and made again must be watched again, even when the new
// directory got the removed one's inode number (ext4 reuses a freed one for the next directory
// made beside it): found by the chaos run, where the snapshot kept a claude's conversation from
// before its /clear for up to a minute because the watcher of the removed directory heard nothing.
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdDir, removedSince } from '../../../src/fleet/ids/capture-watchers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'fleetcom-watch-'));
  dirs.push(d);
  return d;
}

describe('a watched namespace held open', () => {
  it('is seen as removed once it is, whatever is made at its path since', () => {
    const ns = join(temp(), 'ns');
    mkdirSync(ns);
    const held = holdDir(ns)!;
    expect(held.ino).toBe(statSync(ns).ino);
    expect(removedSince(held)).toBe(false);
    rmSync(ns, { recursive: true });
    mkdirSync(ns);
    expect(removedSince(held)).toBe(true);
    // Held open, the removed directory keeps its inode number: the new one cannot take it.
    expect(statSync(ns).ino).not.toBe(held.ino);
  });

  it('holds only a real directory, never one behind a symlink', () => {
    const root = temp();
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'link'));
    expect(holdDir(join(root, 'link'))).toBeNull();
    expect(holdDir(join(root, 'missing'))).toBeNull();
    expect(removedSince(undefined)).toBe(false);
  });
});
