import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/file.js';
import { mergeSettings } from '../../src/config/settings.js';

const FILE = '/h/.config/fleetcom/config.json';

function refusal(text: string): { key: string | null; reason: string; exitCode: number } {
  try {
    parseConfig(text, FILE);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { key: e.key, reason: e.reason, exitCode: e.exitCode };
  }
  throw new Error(`accepted: ${text}`);
}

describe('config notify', () => {
  it('fills the rules in with their defaults and keeps every target', () => {
    const file = parseConfig('{"notify": {"delaySeconds": 2, "targets": [{"type": "ntfy", "url": "https://ntfy.sh/t", "token": "tk"}, {"type": "command", "argv": ["say", "hi"]}, {"type": "terminal"}]}}', FILE);
    expect(file.notify).toEqual({
      delaySeconds: 2, cooldownSeconds: 60, whenWatching: false,
      targets: [{ type: 'ntfy', url: 'https://ntfy.sh/t', token: 'tk' }, { type: 'command', argv: ['say', 'hi'] }, { type: 'terminal' }],
    });
    expect(mergeSettings({}, {}).settings.notify).toEqual({ delaySeconds: 5, cooldownSeconds: 60, whenWatching: false, targets: [] });
  });

  it.each([
    ['an unknown target type', '{"notify": {"targets": [{"type": "pager"}]}}', 'notify.targets.0.type'],
    ['a URL that is not http(s)', '{"notify": {"targets": [{"type": "webhook", "url": "ftp://h/x"}]}}', 'notify.targets.0.url'],
    ['a URL that is no URL', '{"notify": {"targets": [{"type": "ntfy", "url": "ntfy.sh/x"}]}}', 'notify.targets.0.url'],
    ['an argv that is not a list', '{"notify": {"targets": [{"type": "command", "argv": "notify-send hi"}]}}', 'notify.targets.0.argv'],
    ['an empty argv', '{"notify": {"targets": [{"type": "command", "argv": []}]}}', 'notify.targets.0.argv'],
    ['a negative delay', '{"notify": {"delaySeconds": -1}}', 'notify.delaySeconds'],
    ['a negative cooldown', '{"notify": {"cooldownSeconds": -5}}', 'notify.cooldownSeconds'],
    ['a negative timeout', '{"notify": {"targets": [{"type": "desktop", "timeoutSeconds": -1}]}}', 'notify.targets.0.timeoutSeconds'],
    ['a typo in the rules', '{"notify": {"delay": 5}}', 'notify.delay'],
    ['a typo in a target', '{"notify": {"targets": [{"type": "webhook", "url": "http://h", "header": {}}]}}', 'notify.targets.0.header'],
    ['a header value with a line break', '{"notify": {"targets": [{"type": "webhook", "url": "http://h", "headers": {"X-A": "a\\nb"}}]}}', 'notify.targets.0.headers.X-A'],
    ['whenWatching not a boolean', '{"notify": {"whenWatching": "yes"}}', 'notify.whenWatching'],
    ['notify not an object', '{"notify": []}', 'notify'],
  ])('refuses the whole file for %s, naming %s (exit 2)', (_title, text, key) => {
    const r = refusal(text);
    expect(r.key).toBe(key);
    expect(r.exitCode).toBe(2);
    expect(r.reason).not.toBe('');
  });
});
