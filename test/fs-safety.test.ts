import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FleetError } from '../src/errors.js';
import {
  createWhole,
  ensureSafeDir,
  keepAside,
  makePrivateDirs,
  readOwnFile,
  removeDirTree,
  removeFile,
  UnsafeDirError,
  writeFileAtomicSync,
} from '../src/fs-safety.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fleetcom-fs-safety-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const mode = (p: string) => statSync(p).mode & 0o777;

describe('readOwnFile', () => {
  it('reads the file, says null when there is none yet, and names the file it cannot read', () => {
    const file = join(tmp, 'list.json');
    expect(readOwnFile(file)).toBeNull();
    writeFileSync(file, '{"version": 1}\n');
    expect(readOwnFile(file)).toBe('{"version": 1}\n');
    const dir = join(tmp, 'a-dir.json');
    mkdirSync(dir);
    expect(() => readOwnFile(dir)).toThrow(new FleetError(`${dir}: cannot be read: is a directory (EISDIR)`));
  });
});

describe('ensureSafeDir', () => {
  it('creates a missing directory and its missing parents 0700, whatever the umask', () => {
    const old = process.umask(0o022);
    try {
      ensureSafeDir(join(tmp, 'a', 'b'));
    } finally {
      process.umask(old);
    }
    expect(mode(join(tmp, 'a'))).toBe(0o700);
    expect(mode(join(tmp, 'a', 'b'))).toBe(0o700);
  });

  it('uses an existing safe directory as it is and never chmods a parent it did not create', () => {
    chmodSync(tmp, 0o755);
    ensureSafeDir(join(tmp, 'new'));
    expect(mode(tmp)).toBe(0o755);
    mkdirSync(join(tmp, 'mine'), { mode: 0o750 });
    ensureSafeDir(join(tmp, 'mine'));
    expect(mode(join(tmp, 'mine'))).toBe(0o750);
  });

  it.each([
    ['a symlink', (p: string) => symlinkSync(tmp, p), 'is a symbolic link'],
    ['a symlink given with a trailing slash', (p: string) => symlinkSync(tmp, p), 'is a symbolic link', '/'],
    ['a plain file', (p: string) => writeFileSync(p, ''), 'is not a directory'],
    ['a group-writable directory', (p: string) => { mkdirSync(p); chmodSync(p, 0o770); }, 'is writable by group (mode 0770)'],
    ['an others-writable directory', (p: string) => { mkdirSync(p); chmodSync(p, 0o707); }, 'is writable by others (mode 0707)'],
  ])('refuses %s, naming it and why', (_what, make, reason, suffix = '') => {
    const path = join(tmp, 'x');
    make(path);
    expect(() => ensureSafeDir(path + suffix)).toThrow(new FleetError(`refusing to use ${path}${suffix}: it ${reason}; fix it or choose another with FLEETCOM_RUNTIME_DIR`));
  });

  it('refuses a directory owned by another uid', () => {
    expect(() => ensureSafeDir(tmp, (process.getuid?.() ?? 0) + 1)).toThrow(/is owned by uid \d+, not by you/);
  });

  it('says which directory cannot be looked at, and why', () => {
    writeFileSync(join(tmp, 'plain'), '');
    expect(() => ensureSafeDir(join(tmp, 'plain', 'x'))).toThrow(`cannot use ${join(tmp, 'plain', 'x')}: cannot be inspected (ENOTDIR)`);
  });
});

describe('makePrivateDirs', () => {
  it('leaves a directory that exists alone', () => {
    mkdirSync(join(tmp, 'd'), { mode: 0o755 });
    chmodSync(join(tmp, 'd'), 0o755);
    makePrivateDirs(join(tmp, 'd'));
    expect(mode(join(tmp, 'd'))).toBe(0o755);
  });

  it('throws UnsafeDirError naming the directory when a parent is a file', () => {
    writeFileSync(join(tmp, 'f'), '');
    expect(() => makePrivateDirs(join(tmp, 'f', 'd'))).toThrow(new UnsafeDirError(join(tmp, 'f', 'd'), 'cannot be created (ENOTDIR)'));
  });
});

describe('writeFileAtomicSync', () => {
  it('replaces a file with the new text, 0600 whatever it was, and leaves no temp file', () => {
    const file = join(tmp, 'state.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    writeFileAtomicSync(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(tmp)).toEqual(['state.json']);
  });

  it('replaces a symlink at the name instead of writing through it', () => {
    writeFileSync(join(tmp, 'target'), 'kept');
    symlinkSync(join(tmp, 'target'), join(tmp, 'link'));
    writeFileAtomicSync(join(tmp, 'link'), 'new');
    expect(readFileSync(join(tmp, 'target'), 'utf8')).toBe('kept');
    expect(lstatSync(join(tmp, 'link')).isFile()).toBe(true);
  });

  it('keeps what is in the way and removes its temp file when the rename fails', () => {
    mkdirSync(join(tmp, 'in-the-way'));
    writeFileSync(join(tmp, 'in-the-way', 'inside'), 'kept');
    expect(() => writeFileAtomicSync(join(tmp, 'in-the-way'), 'new')).toThrow();
    expect(readFileSync(join(tmp, 'in-the-way', 'inside'), 'utf8')).toBe('kept');
    expect(readdirSync(tmp)).toEqual(['in-the-way']);
  });
});

describe('createWhole', () => {
  it('creates the file with its whole text once, then refuses to replace it', () => {
    const file = join(tmp, 'lock');
    expect(createWhole(file, 'first\n')).toBe(true);
    expect(createWhole(file, 'second\n')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(tmp)).toEqual(['lock']);
  });
});

describe('removal', () => {
  it('removes a file, and a missing one is fine', () => {
    writeFileSync(join(tmp, 'f'), '');
    removeFile(join(tmp, 'f'));
    removeFile(join(tmp, 'f'));
    expect(existsSync(join(tmp, 'f'))).toBe(false);
  });

  it('removes a directory tree, and says false when there was none', () => {
    mkdirSync(join(tmp, 'd', 'e'), { recursive: true });
    writeFileSync(join(tmp, 'd', 'e', 'f'), '');
    expect(removeDirTree(join(tmp, 'd'))).toBe(true);
    expect(existsSync(join(tmp, 'd'))).toBe(false);
    expect(removeDirTree(join(tmp, 'd'))).toBe(false);
  });

  it('refuses a symlink in place of the directory and leaves what it points to', () => {
    mkdirSync(join(tmp, 'elsewhere'));
    writeFileSync(join(tmp, 'elsewhere', 'precious'), 'kept');
    symlinkSync(join(tmp, 'elsewhere'), join(tmp, 'd'));
    expect(() => removeDirTree(join(tmp, 'd'))).toThrow(`${join(tmp, 'd')} is not a directory; refusing to remove it`);
    expect(readFileSync(join(tmp, 'elsewhere', 'precious'), 'utf8')).toBe('kept');
  });

  it('keeps a damaged file aside under a dated name', () => {
    writeFileSync(join(tmp, 'state.json'), '{');
    const aside = keepAside(join(tmp, 'state.json'), new Date('2026-11-30T20:21:22.333Z'));
    expect(aside).toBe(join(tmp, 'state.json.corrupt-2026-11-30T20-21-22-333Z'));
    expect(readdirSync(tmp)).toEqual(['state.json.corrupt-2026-11-30T20-21-22-333Z']);
  });
});
