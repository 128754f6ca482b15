import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/file.js';
import { envSettings, mergeSettings } from '../../src/config/settings.js';

const FILE = '/h/.config/fleetcom/config.json';

function refusal(text: string): { key: string | null; reason: string; message: string; exitCode: number } {
  try {
    parseConfig(text, FILE);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { key: e.key, reason: e.reason, message: e.message, exitCode: e.exitCode };
  }
  throw new Error(`accepted: ${text}`);
}

describe('parseConfig', () => {
  it('accepts every key, and an empty object', () => {
    expect(parseConfig('{"rerunKey": "C-r", "idleSeconds": 30, "groupBy": "dir"}', FILE)).toEqual({ rerunKey: 'C-r', idleSeconds: 30, groupBy: 'dir' });
    expect(parseConfig('{}', FILE)).toEqual({});
    expect(parseConfig('\uFEFF{"rerunKey": "none"}', FILE)).toEqual({ rerunKey: 'none' });
  });

  it.each([
    ['a wrong type', '{"idleSeconds": "30"}', 'idleSeconds', 'expected a number'],
    ['a fraction of a second', '{"idleSeconds": 2.5}', 'idleSeconds', 'expected a whole number of seconds'],
    ['zero seconds', '{"idleSeconds": 0}', 'idleSeconds', 'expected at least 1'],
    ['an unknown grouping', '{"groupBy": "directory"}', 'groupBy', 'expected one of state, dir, group'],
    ['a key with a space', '{"rerunKey": "C r"}', 'rerunKey', "expected a tmux key name such as r or C-r, or 'none'"],
    ['a key with a quote', `{"rerunKey": "r'"}`, 'rerunKey', "expected a tmux key name such as r or C-r, or 'none'"],
    ['an unknown key (a typo)', '{"rerunkey": "x"}', 'rerunkey', 'unknown key (known: rerunKey, idleSeconds, groupBy, nextKey, notifyCommand, notify, hosts, sshCommand, remoteCommand, hostTimeoutSeconds, homes, worktreeDir, worktreeSetup, worktreeSetupSeconds, sendMaxBytes)'],
    ['null for a key', '{"groupBy": null}', 'groupBy', 'expected one of state, dir, group'],
    ['a next key with a space', '{"nextKey": "C n"}', 'nextKey', "expected a tmux key name such as N or C-n, or 'none'"],
    ['an empty notify command', '{"notifyCommand": "  "}', 'notifyCommand', 'expected a command'],
    ['a notify command that is not a string', '{"notifyCommand": ["notify-send"]}', 'notifyCommand', 'expected a string'],
  ])('refuses %s, naming the file, the key and the reason (exit 2)', (_title, text, key, reason) => {
    expect(refusal(text)).toEqual({ key, reason, message: `${FILE}: ${key}: ${reason}`, exitCode: 2 });
  });

  it('refuses the whole file when one key of several is bad', () => {
    expect(refusal('{"rerunKey": "x", "idleSeconds": -1}').key).toBe('idleSeconds');
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"r"'],
    ['null', 'null'],
  ])('refuses %s instead of an object', (_title, text) => {
    expect(refusal(text)).toMatchObject({ key: null, reason: 'expected a JSON object of settings' });
  });

  it('names the line and column of a JSON syntax error', () => {
    expect(refusal('{\n  "rerunKey": "r",\n}')).toMatchObject({ key: 'line 3, column 1', reason: expect.stringMatching(/^invalid JSON: /) });
  });
});

describe('mergeSettings', () => {
  it('uses the defaults without a file or flags', () => {
    expect(mergeSettings({}, {})).toEqual({
      settings: { rerunKey: 'r', idleSeconds: 10, groupBy: 'state', nextKey: 'N', notifyCommand: null, notify: { delaySeconds: 5, cooldownSeconds: 60, whenWatching: false, targets: [] }, hosts: [], sshCommand: ['ssh'], remoteCommand: ['fleetcom'], hostTimeoutSeconds: 5, homes: {}, worktreeDir: '{repo-root}/../{repo}.worktrees/{branch}', worktreeSetup: null, worktreeSetupSeconds: 600, sendMaxBytes: 262144 },
      sources: { rerunKey: 'default', idleSeconds: 'default', groupBy: 'default', nextKey: 'default', notifyCommand: 'default', notify: 'default', hosts: 'default', sshCommand: 'default', remoteCommand: 'default', hostTimeoutSeconds: 'default', homes: 'default', worktreeDir: 'default', worktreeSetup: 'default', worktreeSetupSeconds: 'default', sendMaxBytes: 'default' },
    });
  });

  it('takes the file over the defaults and a flag over the file', () => {
    expect(mergeSettings({ rerunKey: 'C-r', idleSeconds: 30, notifyCommand: 'notify-send hi' }, { idleSeconds: 5, nextKey: 'F6' })).toEqual({
      settings: { rerunKey: 'C-r', idleSeconds: 5, groupBy: 'state', nextKey: 'F6', notifyCommand: 'notify-send hi', notify: { delaySeconds: 5, cooldownSeconds: 60, whenWatching: false, targets: [] }, hosts: [], sshCommand: ['ssh'], remoteCommand: ['fleetcom'], hostTimeoutSeconds: 5, homes: {}, worktreeDir: '{repo-root}/../{repo}.worktrees/{branch}', worktreeSetup: null, worktreeSetupSeconds: 600, sendMaxBytes: 262144 },
      sources: { rerunKey: 'file', idleSeconds: 'flag', groupBy: 'default', nextKey: 'flag', notifyCommand: 'file', notify: 'default', hosts: 'default', sshCommand: 'default', remoteCommand: 'default', hostTimeoutSeconds: 'default', homes: 'default', worktreeDir: 'default', worktreeSetup: 'default', worktreeSetupSeconds: 'default', sendMaxBytes: 'default' },
    });
  });

  it('takes an environment variable over the file and a flag over both', () => {
    const env = envSettings({ FLEETCOM_SSH_COMMAND: ' ssh  -F /t/config ', FLEETCOM_REMOTE_COMMAND: '', FLEETCOM_HOST_TIMEOUT: '2.5' });
    expect(env).toEqual({ sshCommand: ['ssh', '-F', '/t/config'], hostTimeoutSeconds: 2.5 });
    const { settings, sources } = mergeSettings({ sshCommand: ['autossh'], remoteCommand: ['/opt/fc'], hosts: ['gpu'] }, { hostTimeoutSeconds: 9 }, env);
    expect(settings).toMatchObject({ sshCommand: ['ssh', '-F', '/t/config'], remoteCommand: ['/opt/fc'], hosts: ['gpu'], hostTimeoutSeconds: 9 });
    expect(sources).toMatchObject({ sshCommand: 'env', remoteCommand: 'file', hosts: 'file', hostTimeoutSeconds: 'flag' });
    expect(() => envSettings({ FLEETCOM_HOST_TIMEOUT: 'soon' })).toThrowError(/FLEETCOM_HOST_TIMEOUT=soon: expected a number/);
  });

  it('refuses a hostile host in the hosts list, naming it', () => {
    expect(refusal('{"hosts": ["gpu", "-oProxyCommand=x"]}')).toMatchObject({ key: 'hosts.1', reason: expect.stringMatching(/refused: it starts with "-"/) });
    expect(refusal('{"sshCommand": []}')).toMatchObject({ key: 'sshCommand' });
  });
});
