import envPaths from 'env-paths';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureRoot, fnv1a64 } from '../../src/capture/root.js';

describe('fnv1a64', () => {
  it.each([
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['foobar', '85944171f73967e8'],
  ])('hashes %j to %s', (text, hash) => {
    expect(fnv1a64(text)).toBe(hash);
  });

  it('hashes the UTF-8 bytes, not UTF-16 code units or Latin-1', () => {
    // "é" is C3 A9 in UTF-8; hashing the single byte E9 would give af64644c8602d3a4.
    expect(fnv1a64('é')).toBe('0ac21707b7181e01');
  });

  it('always gives 16 lowercase hex digits', () => {
    for (const text of ['x', '/', '/home/u/.config/fleetcom/sessions', '\u0000', '😀'.repeat(50)]) {
      expect(fnv1a64(text)).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});

describe('captureRoot', () => {
  const sessionDir = '/home/u/.config/fleetcom/sessions';
  const disc = fnv1a64(sessionDir);
  const home = '/home/u';

  it.each<[string, Record<string, string>, NodeJS.Platform, string]>([
    ['an explicit FLEETCOM_RUNTIME_DIR becomes that root, verbatim', { FLEETCOM_RUNTIME_DIR: '/r/x/', XDG_RUNTIME_DIR: '/run/user/1' }, 'linux', '/r/x/'],
    ['a relative FLEETCOM_RUNTIME_DIR is kept verbatim too', { FLEETCOM_RUNTIME_DIR: 'rel' }, 'linux', 'rel'],
    ['XDG_RUNTIME_DIR gives <it>/fleetcom/<disc>', { XDG_RUNTIME_DIR: '/run/user/1' }, 'linux', `/run/user/1/fleetcom/${disc}`],
    ['an empty FLEETCOM_RUNTIME_DIR counts as unset', { FLEETCOM_RUNTIME_DIR: '', XDG_RUNTIME_DIR: '/run/user/1' }, 'linux', `/run/user/1/fleetcom/${disc}`],
    ['no runtime dir: the cache dir + /fleetcom/run', {}, 'linux', `/home/u/.cache/fleetcom/run/${disc}`],
    ['an empty XDG_RUNTIME_DIR counts as unset', { XDG_RUNTIME_DIR: '' }, 'linux', `/home/u/.cache/fleetcom/run/${disc}`],
    ['XDG_CACHE_HOME moves the cache dir', { XDG_CACHE_HOME: '/c' }, 'linux', `/c/fleetcom/run/${disc}`],
    ['other Unixes follow the XDG rules', { XDG_RUNTIME_DIR: '/var/run/user/1' }, 'freebsd', `/var/run/user/1/fleetcom/${disc}`],
    ['macOS has no runtime dir: ~/Library/Caches/fleetcom/run', { XDG_RUNTIME_DIR: '/ignored' }, 'darwin', `/home/u/Library/Caches/fleetcom/run/${disc}`],
  ])('%s', (_title, env, platform, expected) => {
    expect(captureRoot({ env, sessionDir, platform, homedir: home })).toBe(expected);
  });

  it('uses the Windows local app data cache dir on win32', () => {
    expect(captureRoot({ env: { LOCALAPPDATA: 'C:\\L' }, sessionDir, platform: 'win32', homedir: 'C:\\U' })).toBe(
      `C:\\L\\fleetcom\\Cache\\run\\${disc}`,
    );
  });

  it('gives different session directories different roots', () => {
    const a = captureRoot({ env: {}, sessionDir: '/a/sessions', platform: 'linux', homedir: home });
    const b = captureRoot({ env: {}, sessionDir: '/a/sessions/', platform: 'linux', homedir: home });
    expect(a).not.toBe(b);
  });

  it('agrees with env-paths (suffix "") on this platform', () => {
    const env = { ...process.env, XDG_RUNTIME_DIR: '', FLEETCOM_RUNTIME_DIR: '' };
    const expected = join(envPaths('fleetcom', { suffix: '' }).cache, 'run', disc);
    expect(captureRoot({ env, sessionDir, homedir: homedir() })).toBe(expected);
  });
});
