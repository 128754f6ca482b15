import { execFileSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  RecipeError,
  RecipeNotFoundError,
  SessionError,
  SessionUsageError,
  MAX_RECIPE_BYTES,
  defaultFs,
  parseRecipe,
  readRecipeFile,
  resolveSession,
  saveNamed,
  writeRecipeAtomic,
  type Recipe,
  type StoreFs,
} from '../../src/sessions/index.js';

const HOME = '/home/ann';
let tmp: string;

beforeEach(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'fleetcom-sessions-'));
});
afterEach(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

const mode = async (p: string): Promise<number> => (await fsp.stat(p)).mode & 0o777;
const leftovers = async (dir: string): Promise<string[]> => (await fsp.readdir(dir)).filter((n) => n.endsWith('.tmp'));

function fleet(...cmds: string[]): Recipe {
  return { name: 'ignored', dirs: new Map([['/home/ann/code', cmds.map((cmd) => ({ cmd, group: null, name: null }))]]) };
}

/** The default fs with one call made to fail like a full disk. */
function failing(stage: 'writeFile' | 'sync' | 'rename'): StoreFs {
  const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  return {
    ...defaultFs,
    rename: async (...args: Parameters<StoreFs['rename']>) => {
      if (stage === 'rename') throw enospc();
      return defaultFs.rename(...args);
    },
    open: (async (...args: Parameters<StoreFs['open']>) => {
      const handle = await defaultFs.open(...args);
      if (args[1] !== 'wx') return handle;
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === stage) return async () => Promise.reject(enospc());
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    }) as StoreFs['open'],
  };
}

describe('resolveSession', () => {
  const where = { sessionDir: '/cfg/sessions', home: HOME, cwd: '/work' };
  it.each([
    ['work', '/cfg/sessions/work.json'],
    ['my/session', '/cfg/sessions/my_session.json'],
    ['a.b', '/cfg/sessions/a_b.json'],
    ['./here.json', '/work/here.json'],
    ['../up', '/up'],
    ['~/s/x.json', '/home/ann/s/x.json'],
    ['/abs/y', '/abs/y'],
    ['rel.json', '/work/rel.json'],
  ])('finds %j at %s', (arg, file) => {
    expect(resolveSession(arg, where)).toBe(file);
  });

  it('refuses an empty name as a usage error', () => {
    expect(() => resolveSession('  ', where)).toThrow(SessionUsageError);
  });
});

describe('writeRecipeAtomic', () => {
  it('creates missing directories 0700, the file 0600, and leaves no temp file', async () => {
    const file = path.join(tmp, 'a', 'b', 'work.json');
    await writeRecipeAtomic(file, 'one\n');
    expect(await fsp.readFile(file, 'utf8')).toBe('one\n');
    expect(await mode(file)).toBe(0o600);
    expect(await mode(path.join(tmp, 'a'))).toBe(0o700);
    expect(await mode(path.join(tmp, 'a', 'b'))).toBe(0o700);
    expect(await fsp.readdir(path.join(tmp, 'a', 'b'))).toEqual(['work.json']);
  });

  it('never changes the mode of a directory it did not create', async () => {
    await fsp.chmod(tmp, 0o755);
    await writeRecipeAtomic(path.join(tmp, 'new', 'f.json'), 'x');
    expect(await mode(tmp)).toBe(0o755);
    expect(await mode(path.join(tmp, 'new'))).toBe(0o700);
  });

  it('replaces an existing file, which ends up 0600 whatever it was', async () => {
    const file = path.join(tmp, 'f.json');
    await fsp.writeFile(file, 'old', { mode: 0o644 });
    await writeRecipeAtomic(file, 'new');
    expect(await fsp.readFile(file, 'utf8')).toBe('new');
    expect(await mode(file)).toBe(0o600);
  });

  it('keeps whatever is in the way and removes its temp file when the rename fails', async () => {
    const file = path.join(tmp, 'f.json');
    await fsp.mkdir(file);
    await fsp.writeFile(path.join(file, 'inside'), 'kept');
    await expect(writeRecipeAtomic(file, 'new')).rejects.toThrow(SessionError);
    expect(await fsp.readFile(path.join(file, 'inside'), 'utf8')).toBe('kept');
    expect(await leftovers(tmp)).toEqual([]);
  });

  it.each(['writeFile', 'sync', 'rename'] as const)(
    'keeps the previous file intact and no temp file when %s fails',
    async (stage) => {
      const file = path.join(tmp, 'f.json');
      await fsp.writeFile(file, 'previous', { mode: 0o600 });
      const err = await writeRecipeAtomic(file, 'new', failing(stage)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SessionError);
      expect((err as Error).message).toBe(`cannot write ${file}: no space left on the device (ENOSPC)`);
      expect(await fsp.readFile(file, 'utf8')).toBe('previous');
      expect(await fsp.readdir(tmp)).toEqual(['f.json']);
    },
  );

  it('fails naming the directory when a parent is a file', async () => {
    await fsp.writeFile(path.join(tmp, 'plain'), '');
    await expect(writeRecipeAtomic(path.join(tmp, 'plain', 'x', 'f.json'), 'x')).rejects.toThrow(
      `cannot create ${path.join(tmp, 'plain', 'x')}: a parent is not a directory (ENOTDIR)`,
    );
  });
});

describe('readRecipeFile', () => {
  it('says which file does not exist', async () => {
    const file = path.join(tmp, 'nope.json');
    await expect(readRecipeFile(file)).rejects.toThrow(RecipeNotFoundError);
    await expect(readRecipeFile(file)).rejects.toThrow(`${file}: no such file`);
  });

  it('refuses a malformed file naming it and the place', async () => {
    const file = path.join(tmp, 'bad.json');
    await fsp.writeFile(file, '{\n  "version": 1,\n  "dirs": {"/w": [1]}\n}\n');
    await expect(readRecipeFile(file)).rejects.toThrow(`${file}: dirs["/w"][0]: expected a command string`);
  });

  it('refuses a directory as a session file', async () => {
    await expect(readRecipeFile(tmp)).rejects.toThrow(RecipeError);
  });

  it('refuses a named pipe at once instead of waiting for a writer', async () => {
    const fifo = path.join(tmp, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    await expect(readRecipeFile(fifo)).rejects.toThrow(`${fifo}: not a regular file`);
  });

  it('refuses a file over 16 MiB from its size, reading none of it, naming the file and the limit', async () => {
    const file = path.join(tmp, 'huge.json');
    await fsp.writeFile(file, '');
    await fsp.truncate(file, MAX_RECIPE_BYTES + 1); // sparse: nothing on disk
    const { fs, read } = counting(defaultFs);
    const error = await readRecipeFile(file, fs).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecipeError);
    expect((error as Error).message).toBe(`${file}: too large for a session file (${MAX_RECIPE_BYTES + 1} bytes); the limit is 16 MiB (16777216 bytes)`);
    expect(read()).toBe(0);
  });

  it('reads a file of exactly the limit', async () => {
    const file = path.join(tmp, 'full.json');
    const text = `{"version": 1, "name": "full", "dirs": {"/w": ["sleep 1"]}}`;
    await fsp.writeFile(file, text.padEnd(MAX_RECIPE_BYTES, ' '));
    expect((await readRecipeFile(file)).name).toBe('full');
  });

  it('stops reading a file that grows past the limit while it is read', async () => {
    const file = path.join(tmp, 'growing.json');
    await fsp.writeFile(file, '{"version": 1, "dirs": {}}');
    // The size it has when looked at is small; then it grows by a MiB before each read.
    const { fs, read } = counting(defaultFs, async () => {
      await fsp.appendFile(file, Buffer.alloc(1024 * 1024, 0x20));
    });
    await expect(readRecipeFile(file, fs)).rejects.toThrow(`${file}: too large for a session file (it grew past the limit while it was read); the limit is 16 MiB`);
    expect(read()).toBeLessThanOrEqual(MAX_RECIPE_BYTES + 1);
  });
});

/** `base` counting the bytes read through the handles it opens; `beforeRead` runs before each read. */
function counting(base: StoreFs, beforeRead: () => Promise<void> = async () => {}): { fs: StoreFs; read: () => number } {
  let bytes = 0;
  const open = (async (...args: Parameters<StoreFs['open']>) => {
    const handle = await base.open(...args);
    return new Proxy(handle, {
      get(target, prop) {
        if (prop === 'read') {
          return async (...a: Parameters<typeof handle.read>) => {
            await beforeRead();
            const r = await (target.read as (...x: unknown[]) => Promise<{ bytesRead: number }>)(...a);
            bytes += r.bytesRead;
            return r;
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...x: unknown[]) => unknown).bind(target) : value;
      },
    });
  }) as StoreFs['open'];
  return { fs: { ...base, open }, read: () => bytes };
}

describe('saveNamed', () => {
  it('writes NAME as its sanitised file with the name inside, 0600 in a 0700 directory', async () => {
    const dir = path.join(tmp, 'sessions');
    const saved = await saveNamed(dir, ' my/session ', fleet('claude'), HOME);
    expect(saved).toEqual({ file: path.join(dir, 'my_session.json'), replaced: false });
    const back = parseRecipe(await fsp.readFile(saved.file, 'utf8'), saved.file);
    expect(back.name).toBe('my/session');
    expect(Object.fromEntries(back.dirs)).toEqual({ '~/code': [{ cmd: 'claude', group: null, name: null }] });
    expect(await mode(saved.file)).toBe(0o600);
    expect(await mode(dir)).toBe(0o700);
  });

  it('replaces an earlier save of the same name', async () => {
    await saveNamed(tmp, 'work', fleet('a'), HOME);
    const again = await saveNamed(tmp, 'work', fleet('b', 'c'), HOME);
    expect(again.replaced).toBe(true);
    const back = await readRecipeFile(again.file);
    expect(back.dirs.get('~/code')?.map((e) => e.cmd)).toEqual(['b', 'c']);
    expect(await leftovers(tmp)).toEqual([]);
  });

  it.each([
    ['my/session', 'my_session'],
    ['a.b', 'a:b'],
    ['x?', 'x*'],
  ])('refuses to save %j over the file of %j, naming both', async (first, second) => {
    const { file } = await saveNamed(tmp, first, fleet('first'), HOME);
    const before = await fsp.readFile(file, 'utf8');
    const err = await saveNamed(tmp, second, fleet('second'), HOME).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionError);
    expect((err as Error).message).toContain(`'${second}'`);
    expect((err as Error).message).toContain(`'${first}'`);
    expect((err as Error).message).toContain(file);
    expect(await fsp.readFile(file, 'utf8')).toBe(before);
  });

  it('treats a legacy file as the session named by its file name', async () => {
    await fsp.writeFile(path.join(tmp, 'old.json'), '{"/w": ["a"]}');
    expect((await saveNamed(tmp, 'old', fleet('b'), HOME)).replaced).toBe(true);
    await fsp.writeFile(path.join(tmp, 'x_y.json'), '{"/w": ["a"]}');
    await expect(saveNamed(tmp, 'x.y', fleet('b'), HOME)).rejects.toThrow("holds the session 'x_y'");
  });

  it('refuses to overwrite a file it cannot read as a session', async () => {
    const file = path.join(tmp, 'hand.json');
    await fsp.writeFile(file, '{"/w": [oops]}');
    await expect(saveNamed(tmp, 'hand', fleet('b'), HOME)).rejects.toThrow(
      `not saving 'hand' over ${file}, which cannot be read as a session (${file}: line 1, column 9`,
    );
    expect(await fsp.readFile(file, 'utf8')).toBe('{"/w": [oops]}');
  });

  it.each(['', '   ', '\u0007'])('refuses the empty name %j as a usage error', async (name) => {
    const err = await saveNamed(tmp, name, fleet('a'), HOME).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionUsageError);
    expect((err as SessionUsageError).exitCode).toBe(2);
    expect(await fsp.readdir(tmp)).toEqual([]);
  });

  it('keeps the previous save when writing the new one fails', async () => {
    const { file } = await saveNamed(tmp, 'work', fleet('a'), HOME);
    await expect(saveNamed(tmp, 'work', fleet('b'), HOME, failing('sync'))).rejects.toThrow(SessionError);
    expect((await readRecipeFile(file)).dirs.get('~/code')?.[0]?.cmd).toBe('a');
    expect(await fsp.readdir(tmp)).toEqual(['work.json']);
  });
});
