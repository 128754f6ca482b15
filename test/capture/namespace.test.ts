import { HARNESSES, OPENCODE_PLUGIN, OPENCODE_PLUGIN_FILE, OPENCODE_RESTART_BYTES } from '../../src/harness/index.js';

/** Every file a namespace holds: section 3's two, then each harness's own. */
const ASSET_FILES = [...new Set(['claude-settings.json', 'codex-notify.sh', ...HARNESSES.flatMap((h) => h.assets.map((a) => a.file))])].sort();
import { CAPTURE_RESTART_BYTES } from '../../src/capture/assets.js';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE_SETTINGS, CODEX_NOTIFY_SCRIPT } from '../../src/capture/assets.js';
import { FleetError } from '../../src/errors.js';
import { capturePath, parseCaptureName } from '../../src/capture/capture-names.js';
import { CaptureSetupError, deleteCaptureFile, installNamespace, removeNamespace, restoreNamespace } from '../../src/capture/namespace.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fleetcom-ns-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const mode = (path: string): number => lstatSync(path).mode & 0o7777;

/** Everything under `dir`: kind, mode, owner, and content or link target, by relative path. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    const path = rel === '' ? dir : join(dir, rel);
    const stat = lstatSync(path);
    const head = `${stat.mode.toString(8)} ${stat.uid}`;
    if (stat.isSymbolicLink()) out[rel] = `${head} -> ${readlinkSync(path)}`;
    else if (stat.isFile()) out[rel] = `${head} ${readFileSync(path, 'base64')}`;
    else {
      out[rel] = `${head} dir`;
      for (const name of readdirSync(path).sort()) walk(rel === '' ? name : join(rel, name));
    }
  };
  walk('');
  return out;
}

const isRoot = process.getuid?.() === 0;

describe('installNamespace', () => {
  it('creates a missing root and its missing parents 0700, then the namespace and both assets', () => {
    const root = join(tmp, 'run', 'fleetcom', '0123456789abcdef');
    const ns = installNamespace(root, { pid: 4242, nonce: '00112233aabb' });
    expect(ns).toEqual({
      root,
      dir: join(root, '4242-00112233aabb'),
      settingsPath: join(root, '4242-00112233aabb', 'claude-settings.json'),
      notifyPath: join(root, '4242-00112233aabb', 'codex-notify.sh'),
    });
    for (const dir of [join(tmp, 'run'), join(tmp, 'run', 'fleetcom'), root, ns.dir]) expect(mode(dir)).toBe(0o700);
    expect(mode(tmp)).toBe(0o700); // mkdtemp's own mode, not changed by install
    expect(mode(ns.settingsPath)).toBe(0o600);
    expect(mode(ns.notifyPath)).toBe(0o700);
    expect(readFileSync(ns.settingsPath, 'utf8')).toBe(CLAUDE_SETTINGS);
    expect(readFileSync(ns.notifyPath, 'utf8')).toBe(CODEX_NOTIFY_SCRIPT);
    expect(readFileSync(join(ns.dir, OPENCODE_PLUGIN_FILE), 'utf8')).toBe(OPENCODE_PLUGIN);
    expect(mode(join(ns.dir, OPENCODE_PLUGIN_FILE))).toBe(0o600);
    expect(readdirSync(ns.dir).sort()).toEqual(ASSET_FILES);
    expect(readdirSync(root)).toEqual(['4242-00112233aabb']);
  });

  // Worker threads cannot change the umask; vitest's default forks pool can.
  it.skipIf(!isMainThread).each([0o000, 0o077, 0o022])('sets exact modes whatever the umask (%o)', (mask) => {
    const previous = process.umask(mask);
    try {
      const root = join(tmp, 'root');
      const ns = installNamespace(root, { pid: 1 });
      expect([mode(root), mode(ns.dir), mode(ns.settingsPath), mode(ns.notifyPath)]).toEqual([0o700, 0o700, 0o600, 0o700]);
    } finally {
      process.umask(previous);
    }
  });

  it('uses an existing safe root as it is, without chmodding it', () => {
    const root = join(tmp, 'root');
    mkdirSync(root);
    chmodSync(root, 0o755);
    writeFileSync(join(root, 'foreign'), 'keep');
    const ns = installNamespace(root, { pid: 7 });
    expect(mode(root)).toBe(0o755);
    expect(readFileSync(join(root, 'foreign'), 'utf8')).toBe('keep');
    expect(mode(ns.dir)).toBe(0o700);
  });

  it('gives every install a fresh nonce: two installs get distinct namespaces', () => {
    const root = join(tmp, 'root');
    const a = installNamespace(root, { pid: 99 });
    const b = installNamespace(root, { pid: 99 });
    expect(a.dir).not.toBe(b.dir);
    for (const ns of [a, b]) {
      expect(ns.dir).toMatch(/\/99-[0-9a-f]{12}$/);
      expect(readFileSync(ns.settingsPath, 'utf8')).toBe(CLAUDE_SETTINGS);
    }
    expect(readdirSync(root).sort()).toEqual([a.dir, b.dir].map((d) => d.slice(root.length + 1)).sort());
  });

  it('never reuses an existing namespace: the second install of the same name fails', () => {
    const root = join(tmp, 'root');
    const first = installNamespace(root, { pid: 5, nonce: 'abcdefabcdef' });
    writeFileSync(join(first.dir, 'task-1-1.json'), '{"session_id":"x"}');
    const before = snapshot(root);
    expect(() => installNamespace(root, { pid: 5, nonce: 'abcdefabcdef' })).toThrow(/5-abcdefabcdef already exists/);
    expect(snapshot(root)).toEqual(before);
  });

  it('leaves a pre-existing <pid>-<nonce> directory and foreign files alone', () => {
    const root = join(tmp, 'root');
    mkdirSync(join(root, '5-000000000000'), { recursive: true });
    chmodSync(root, 0o700);
    chmodSync(join(root, '5-000000000000'), 0o755);
    writeFileSync(join(root, '5-000000000000', 'claude-settings.json'), 'theirs');
    writeFileSync(join(root, 'notes.txt'), 'foreign');
    symlinkSync('/nonexistent', join(root, 'dangling'));
    const before = snapshot(root);
    expect(() => installNamespace(root, { pid: 5, nonce: '000000000000' })).toThrow(CaptureSetupError);
    expect(snapshot(root)).toEqual(before);
    const ns = installNamespace(root, { pid: 5 });
    const after = snapshot(root);
    for (const [path, entry] of Object.entries(before)) if (path !== '') expect(after[path]).toBe(entry);
    expect(Object.keys(after).filter((p) => !(p in before)).sort()).toEqual(
      [ns.dir, ...ASSET_FILES.map((file) => join(ns.dir, file))].map((p) => p.slice(root.length + 1)).sort(),
    );
  });

  const unsafeRoots: Array<[string, (root: string) => void, RegExp]> = [
    ['a symlink to a safe directory', (root) => {
      mkdirSync(join(tmp, 'target'), { mode: 0o700 });
      symlinkSync(join(tmp, 'target'), root);
    }, /is a symbolic link/],
    ['a group-writable directory (0770)', (root) => {
      mkdirSync(root);
      chmodSync(root, 0o770);
    }, /is writable by group \(mode 0770\)/],
    ['a group-writable directory (0775)', (root) => {
      mkdirSync(root);
      chmodSync(root, 0o775);
    }, /is writable by group/],
    ['an others-writable directory (0703)', (root) => {
      mkdirSync(root);
      chmodSync(root, 0o703);
    }, /is writable by others/],
    ['a sticky world-writable directory (1777)', (root) => {
      mkdirSync(root);
      chmodSync(root, 0o1777);
    }, /is writable by group/],
    ['a regular file', (root) => writeFileSync(root, 'x'), /is not a directory/],
    ['a symlink to nowhere', (root) => symlinkSync(join(tmp, 'nowhere'), root), /is a symbolic link/],
  ];
  if (isRoot) {
    unsafeRoots.push(['a directory owned by another user', (root) => {
      mkdirSync(root, { mode: 0o700 });
      chownSync(root, 65534, 65534);
    }, /is owned by uid 65534, not by you \(uid 0\)/]);
  }

  it.each(unsafeRoots)('refuses %s as the root and leaves it unchanged', (_what, make, reason) => {
    const root = join(tmp, 'root');
    make(root);
    if (existsSync(root) && lstatSync(root).isDirectory()) writeFileSync(join(root, 'foreign'), 'keep');
    const before = snapshot(tmp);
    let error: unknown;
    try {
      installNamespace(root, { pid: 1 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CaptureSetupError);
    expect((error as Error).message).toContain(root);
    expect((error as Error).message).toMatch(reason);
    expect(error).toBeInstanceOf(FleetError);
    expect((error as CaptureSetupError).exitCode).toBe(1);
    expect(snapshot(tmp)).toEqual(before);
  });

  it('checks another owner against the uid it is given', () => {
    const root = join(tmp, 'root');
    mkdirSync(root, { mode: 0o700 });
    const uid = (process.getuid?.() ?? 0) + 1;
    expect(() => installNamespace(root, { pid: 1, uid })).toThrow(/is owned by uid/);
    expect(readdirSync(root)).toEqual([]);
  });

  it.each([
    [{ pid: 0 }],
    [{ pid: -1 }],
    [{ pid: 1.5 }],
    [{ pid: 1, nonce: 'ABCDEF012345' }],
    [{ pid: 1, nonce: 'abc' }],
    [{ pid: 1, nonce: '../../../etc' }],
  ])('rejects an invalid pid or nonce %j before touching anything', (opts) => {
    const root = join(tmp, 'root');
    expect(() => installNamespace(root, opts)).toThrow(RangeError);
    expect(existsSync(root)).toBe(false);
  });
});

describe('capture paths', () => {
  it('names a run capture file <ns>/task-<taskId>-<run>.json', () => {
    expect(capturePath('/r/1-abcdefabcdef', 3, 2)).toBe('/r/1-abcdefabcdef/task-3-2.json');
    expect(capturePath('/r/ns', 0, 0)).toBe('/r/ns/task-0-0.json');
  });

  it.each([[-1, 1], [1, -1], [1.5, 1], [Number.NaN, 1], [1, Number.MAX_SAFE_INTEGER + 1]])(
    'refuses task %s run %s',
    (taskId, run) => {
      expect(() => capturePath('/r/ns', taskId, run)).toThrow(RangeError);
    },
  );

  it.each<[string, { taskId: number; run: number } | null]>([
    ['task-3-2.json', { taskId: 3, run: 2 }],
    ['task-0-10.json', { taskId: 0, run: 10 }],
    ['task-12-1.json', { taskId: 12, run: 1 }],
    ['task-3-2.json.123.tmp', null],
    ['.task-3-2.json', null],
    ['task-03-2.json', null],
    ['task-3-2.JSON', null],
    ['task--1-2.json', null],
    ['task-3.json', null],
    ['task-3-2-1.json', null],
    ['task-99999999999999999999-1.json', null],
    ['claude-settings.json', null],
  ])('parses %j as %j', (name, expected) => {
    expect(parseCaptureName(name)).toEqual(expected);
  });

  it('deletes a capture file, and a missing one is fine', () => {
    const file = join(tmp, 'task-1-1.json');
    writeFileSync(file, '{}');
    deleteCaptureFile(file, [tmp]);
    expect(existsSync(file)).toBe(false);
    expect(() => deleteCaptureFile(file, [tmp])).not.toThrow();
  });

  it('refuses to delete anything that is not named like a capture file', () => {
    const file = join(tmp, 'claude-settings.json');
    writeFileSync(file, '{}');
    expect(() => deleteCaptureFile(file, [tmp])).toThrow(CaptureSetupError);
    expect(existsSync(file)).toBe(true);
  });

  it.each([
    ['another directory', (ns: string) => join(ns, '..', 'elsewhere', 'task-1-1.json')],
    ['a subdirectory of the namespace', (ns: string) => join(ns, 'sub', 'task-1-1.json')],
    ['the parent of the namespace', (ns: string) => join(ns, '..', 'task-1-1.json')],
  ])('refuses a capture-named file in %s (a record read back names it)', (_where, place) => {
    const ns = join(tmp, 'ns');
    const file = place(ns);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'keep');
    expect(() => deleteCaptureFile(file, [ns])).toThrow(/not a capture file in this fleet's namespaces/);
    expect(readFileSync(file, 'utf8')).toBe('keep');
  });
});

describe('removeNamespace', () => {
  it('removes that namespace directory and its files, nothing else', () => {
    const root = join(tmp, 'root');
    const keep = installNamespace(root, { pid: 1 });
    const gone = installNamespace(root, { pid: 2 });
    writeFileSync(join(gone.dir, 'task-1-1.json'), '{}');
    writeFileSync(join(root, 'foreign'), 'keep');
    const before = snapshot(keep.dir);
    removeNamespace(gone.dir, root);
    expect(existsSync(gone.dir)).toBe(false);
    expect(snapshot(keep.dir)).toEqual(before);
    expect(readdirSync(root).sort()).toEqual([keep.dir.slice(root.length + 1), 'foreign'].sort());
    expect(() => removeNamespace(gone.dir, root)).not.toThrow();
  });

  it('refuses a directory named like a namespace outside the capture root', () => {
    const root = join(tmp, 'root');
    mkdirSync(root);
    const elsewhere = join(tmp, 'home', '3-abcdefabcdef');
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, 'work'), 'keep');
    expect(() => removeNamespace(elsewhere, root)).toThrow(/not a capture namespace in/);
    expect(() => removeNamespace(join(root, 'x', '..', '..', 'home', '3-abcdefabcdef'), root)).toThrow(CaptureSetupError);
    expect(readFileSync(join(elsewhere, 'work'), 'utf8')).toBe('keep');
  });

  it.each(['/', 'sessions', 'x-abcdefabcdef', '1-ABCDEFABCDEF'])('refuses a directory named %j', (name) => {
    const dir = name.startsWith('/') ? name : join(tmp, name);
    if (!name.startsWith('/')) mkdirSync(dir);
    expect(() => removeNamespace(dir, tmp)).toThrow(CaptureSetupError);
    expect(existsSync(dir)).toBe(true);
  });

  it('refuses a symlink named like a namespace, leaving its target alone', () => {
    mkdirSync(join(tmp, 'target'));
    writeFileSync(join(tmp, 'target', 'f'), 'keep');
    symlinkSync(join(tmp, 'target'), join(tmp, '3-abcdefabcdef'));
    expect(() => removeNamespace(join(tmp, '3-abcdefabcdef'), tmp)).toThrow(/not a directory/);
    expect(readFileSync(join(tmp, 'target', 'f'), 'utf8')).toBe('keep');
  });
});

describe('a namespace removed under a running fleet', () => {
  it('comes back at the same path with its assets; one that is whole is left as it is', () => {
    const root = join(tmp, 'root');
    const ns = installNamespace(root, { pid: 4242, nonce: 'a1b2c3d4e5f6' });
    writeFileSync(join(ns.dir, 'task-1-0.json'), '{}');
    expect(restoreNamespace(root, ns.dir)).toBe('intact');
    rmSync(root, { recursive: true });
    expect(restoreNamespace(root, ns.dir)).toBe('restored');
    expect(mode(root)).toBe(0o700);
    expect(mode(ns.dir)).toBe(0o700);
    expect(readFileSync(ns.settingsPath, 'utf8')).toBe(CLAUDE_SETTINGS);
    expect(readFileSync(ns.notifyPath, 'utf8')).toBe(CODEX_NOTIFY_SCRIPT);
    expect(mode(ns.notifyPath)).toBe(0o700);
    rmSync(ns.notifyPath);
    rmSync(join(ns.dir, 'opencode-plugin.js'));
    expect(restoreNamespace(root, ns.dir)).toBe('restored');
    expect(readdirSync(ns.dir).sort()).toEqual(ASSET_FILES);
  });

  it.each([
    ['a symlink', (dir: string, elsewhere: string) => symlinkSync(elsewhere, dir), 'is a symbolic link'],
    ['a directory others can write', (dir: string) => (mkdirSync(dir), chmodSync(dir, 0o757)), 'is writable by others (mode 0757)'],
  ])('is refused when someone made it again as %s, and nothing is written', (_, plant, reason) => {
    const root = join(tmp, 'root');
    const ns = installNamespace(root, { pid: 4242, nonce: 'a1b2c3d4e5f6' });
    rmSync(ns.dir, { recursive: true });
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere);
    plant(ns.dir, elsewhere);
    expect(() => restoreNamespace(root, ns.dir)).toThrow(`capture namespace: ${ns.dir} ${reason}; refusing to use it`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('is restored only where a namespace can be: directly in the root, named like one', () => {
    const root = join(tmp, 'root');
    expect(() => restoreNamespace(root, join(tmp, 'home'))).toThrow('is not a capture namespace in');
    expect(existsSync(join(tmp, 'home'))).toBe(false);
  });
});

describe("opencode's plugin", () => {
  it('restarts its files at the size every capture file restarts at', () => {
    expect(OPENCODE_RESTART_BYTES).toBe(CAPTURE_RESTART_BYTES);
  });
});
