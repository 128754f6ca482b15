import envPaths from 'env-paths';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentHome, captureRoot, configFile, fnv1a64, runtimeDir, sessionDir, userHome } from '../src/paths.js';

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
    expect(captureRoot(env, { sessionDir, platform, homedir: home })).toBe(expected);
  });

  it('uses the Windows local app data cache dir on win32', () => {
    expect(captureRoot({ LOCALAPPDATA: 'C:\\L' }, { sessionDir, platform: 'win32', homedir: 'C:\\U' })).toBe(
      `C:\\L\\fleetcom\\Cache\\run\\${disc}`,
    );
  });

  it('gives different session directories different roots', () => {
    const a = captureRoot({}, { sessionDir: '/a/sessions', platform: 'linux', homedir: home });
    const b = captureRoot({}, { sessionDir: '/a/sessions/', platform: 'linux', homedir: home });
    expect(a).not.toBe(b);
  });

  it('agrees with env-paths (suffix "") on this platform', () => {
    const env = { ...process.env, XDG_RUNTIME_DIR: '', FLEETCOM_RUNTIME_DIR: '' };
    const expected = join(envPaths('fleetcom', { suffix: '' }).cache, 'run', disc);
    expect(captureRoot(env, { sessionDir, homedir: homedir() })).toBe(expected);
  });

  it("hashes the environment's own sessions dir and caches under its HOME when nothing else is given", () => {
    const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/cfg' };
    expect(captureRoot(env, { platform: 'linux' })).toBe(`/home/u/.cache/fleetcom/run/${fnv1a64('/cfg/fleetcom/sessions')}`);
  });
});

describe('userHome', () => {
  it('is $HOME, else the account home (an empty HOME counts as unset)', () => {
    expect(userHome({ HOME: '/home/ann' })).toBe('/home/ann');
    expect(userHome({ HOME: '' })).toBe(homedir());
    expect(userHome({})).toBe(homedir());
  });
});

describe('runtimeDir', () => {
  it.each([
    ['FLEETCOM_RUNTIME_DIR verbatim', { FLEETCOM_RUNTIME_DIR: 'rel/', XDG_RUNTIME_DIR: '/run/user/7' }, 'rel/'],
    ['then $XDG_RUNTIME_DIR/fleetcom', { XDG_RUNTIME_DIR: '/run/user/7' }, '/run/user/7/fleetcom'],
    ['then $TMPDIR/fleetcom-<uid>', { TMPDIR: '/t' }, '/t/fleetcom-7'],
    ['then the system temp dir', { FLEETCOM_RUNTIME_DIR: '', XDG_RUNTIME_DIR: '' }, '/sys-tmp/fleetcom-7'],
  ])('%s', (_title, env, expected) => {
    expect(runtimeDir(env, 7, '/sys-tmp')).toBe(expected);
  });
});

describe('configFile and sessionDir', () => {
  it.each([
    ['FLEETCOM_CONFIG_DIR first', { FLEETCOM_CONFIG_DIR: '/f', XDG_CONFIG_HOME: '/x' }, '/f'],
    ['then XDG_CONFIG_HOME', { XDG_CONFIG_HOME: '/x' }, '/x/fleetcom'],
    ['then ~/.config', {}, '/h/.config/fleetcom'],
    ['a relative XDG_CONFIG_HOME is ignored, as the XDG spec says', { XDG_CONFIG_HOME: 'rel' }, '/h/.config/fleetcom'],
    ['empty variables count as unset', { FLEETCOM_CONFIG_DIR: '', XDG_CONFIG_HOME: '' }, '/h/.config/fleetcom'],
  ])('%s', (_title, env, dir) => {
    expect(configFile({ HOME: '/h', ...env })).toBe(`${dir}/config.json`);
    expect(sessionDir({ HOME: '/h', ...env })).toBe(`${dir}/sessions`);
  });
});

describe('agentHome', () => {
  const claude = { name: 'claude', homeVar: 'CLAUDE_CONFIG_DIR', homeDir: '.claude' };
  it('is the agent variable when set, else $HOME/.<agent>', () => {
    expect(agentHome({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' }, claude)).toBe('/c');
    expect(agentHome({ HOME: '/h', CLAUDE_CONFIG_DIR: '' }, claude)).toBe('/h/.claude');
  });

  it('refuses to guess without HOME, naming the agent and its variable', () => {
    expect(() => agentHome({ HOME: '' }, claude)).toThrow('cannot resolve the claude home: neither CLAUDE_CONFIG_DIR nor HOME is set');
  });
});
