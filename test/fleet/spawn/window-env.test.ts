import { describe, expect, it } from 'vitest';
import { checkCommandSize, dropInherited, windowEnv } from '../../../src/fleet/spawn/window-env.js';

describe('a task window environment', () => {
  it('passes only what differs from the global environment, never per-pane or per-run variables', () => {
    const caller = {
      PATH: '/caller/bin', SAME: 'x', ONLY: 'y', TMUX: '/tmp/t,1,0', TMUX_PANE: '%1', TERM: 'xterm', COLUMNS: '80',
      LINES: '24', PWD: '/w', OLDPWD: '/', SHLVL: '2', _: '/usr/bin/fleetcom', UNSET: undefined,
      FLEETCOM_CAPTURE_FILE: '/stale/capture', FLEETCOM_NOTIFY_CHAIN: 'rm\n-rf',
    };
    expect(windowEnv(caller, { PATH: '/usr/bin', SAME: 'x' }, {})).toEqual({ PATH: '/caller/bin', ONLY: 'y' });
  });

  it('adds the harness pairs, which replace nothing inherited', () => {
    const env = windowEnv({ FLEETCOM_NOTIFY_CHAIN: '/stale' }, {}, { FLEETCOM_CAPTURE_FILE: '/ns/task-1-0.json', FLEETCOM_NOTIFY_CHAIN: '' });
    expect(env).toEqual({ FLEETCOM_CAPTURE_FILE: '/ns/task-1-0.json', FLEETCOM_NOTIFY_CHAIN: '' });
  });

  it('accepts an ordinary command and refuses one tmux would reject, naming the largest variables', () => {
    expect(() => checkCommandSize(['/bin/sh', '-c', 'claude'], { A: 'x'.repeat(1000) })).not.toThrow();
    const env = { SMALL: 'x', BIG: 'y'.repeat(9000), BIGGER: 'z'.repeat(10000) };
    expect(() => checkCommandSize(['/bin/sh', '-c', 'claude'], env)).toThrow(/largest variables are BIGGER \(10007 bytes\), BIG \(9004 bytes\), SMALL/);
  });

  it("never passes a calling claude's session markers, but passes the user's claude settings", () => {
    const caller = {
      CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', CLAUDE_CODE_SESSION_ID: 'x', CLAUDE_CODE_CHILD_SESSION: '1', CLAUDE_JOB_DIR: '/j',
      CLAUDE_CODE_SESSION_KIND: 'bg', CLAUDE_CODE_SESSION_NAME: 'n', CLAUDE_BG_SOURCE: 'slash', CLAUDE_BG_RENDEZVOUS_SOCK: '/tmp/s',
      CLAUDE_CONFIG_DIR: '/mine/.claude', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
    };
    expect(windowEnv(caller, {}, {})).toEqual({ CLAUDE_CONFIG_DIR: '/mine/.claude', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' });
  });

  it("unsets the markers tmux's global environment holds, and only those", () => {
    expect(dropInherited({ PATH: '/bin', CLAUDE_CONFIG_DIR: '/c' })).toEqual([]);
    expect(dropInherited({ CLAUDE_CODE_CHILD_SESSION: '1', CLAUDECODE: '1', CLAUDE_CONFIG_DIR: '/c' })).toEqual(['env', '-u', 'CLAUDECODE', '-u', 'CLAUDE_CODE_CHILD_SESSION']);
  });
});
