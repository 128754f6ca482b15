import { describe, expect, it } from 'vitest';
import { missingOn } from '../../src/commands/hosts/hosts.js';
import { readLsReply } from '../../src/commands/hosts/hosts-ls.js';
import { readSaveReply } from '../../src/commands/hosts/hosts-save.js';
import { VERSION } from '../../src/commands/version.js';

const run = (code: number, stdout: string, stderr = '') => ({ code, stdout, stderr, timedOut: false });

describe("what a host's fleetcom answers", () => {
  it('reads an ls reply through the record check, and no fleet as null', () => {
    expect(readLsReply(run(3, '', 'fleetcom: no fleet is running\n'), 'gpu')).toBeNull();
    expect(readLsReply(run(0, '[]'), 'gpu')).toEqual([]);
    expect(() => readLsReply(run(0, '[{"id": "1"}]'), 'gpu')).toThrowError(/^host gpu: ls sent an unreadable task list: \[0\]\.id: expected an integer/);
    expect(() => readLsReply(run(0, 'Welcome to gpu!\n[]'), 'gpu')).toThrowError(/^host gpu: ls sent no JSON: Welcome/);
    expect(() => readLsReply(run(1, '', 'fleetcom: boom\n'), 'gpu')).toThrowError(/^host gpu: ls failed: fleetcom: boom/);
  });

  it("reads a save reply as any recipe file, and refuses one that names hosts of its own", () => {
    expect([...readSaveReply(run(0, '{"version": 1, "name": "fleet", "dirs": {"~/w": ["codex"]}}'), 'gpu').dirs.keys()]).toEqual(['~/w']);
    expect(() => readSaveReply(run(0, '{"version": 1, "dirs": {"~/w": [3]}}'), 'gpu')).toThrowError(/the recipe of host gpu: dirs\["~\/w"\]\[0\]/);
    expect(() => readSaveReply(run(0, '{"version": 2, "dirs": {}, "hosts": {"other": {}}}'), 'gpu')).toThrowError(/hosts of its own/);
    expect(() => readSaveReply(run(0, ''), 'gpu')).toThrowError(/save sent nothing/);
  });

  it('names what a host lacks: tmux blocks, a missing agent or another version is a note', () => {
    const facts = { fleetcom: VERSION, remoteProtocol: 1, node: 'v20.19.0', tmux: { version: 'tmux 3.3a', supported: true, error: null }, agents: { claude: '/usr/bin/claude', codex: null, grok: null }, fleet: 'none' };
    expect(missingOn(facts)).toEqual({ blocking: [], notes: ['codex is not on the PATH of its ssh shell (its tasks would not start)', 'grok is not on the PATH of its ssh shell (its tasks would not start)'] });
    expect(missingOn({ ...facts, tmux: { version: null, supported: false, error: 'tmux is not installed' } }).blocking).toEqual(['tmux is missing there (tmux is not installed): install tmux 3.2 or newer']);
    expect(missingOn({ ...facts, tmux: { version: 'tmux 3.1', supported: false, error: 'older than 3.2' } }).blocking).toEqual(['its tmux 3.1 is too old: install tmux 3.2 or newer']);
    expect(missingOn({ ...facts, fleetcom: '0.0.1', agents: {} }).notes).toEqual([`fleetcom 0.0.1 there, ${VERSION} here (the same remote protocol: they work together)`]);
  });
});
