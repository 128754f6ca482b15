import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturePath } from '../../../src/capture/capture-names.js';
import { planLaunch, type LaunchInputs, type LaunchRequest } from '../../../src/fleet/spawn/launch.js';
import { C, measured, P, rollout, CHILD } from '../../harness/codex-threads.js';
import { ID, tempDir } from '../../harness/fixtures.js';
import { argvThroughShell } from '../../harness/shell.js';

// What tmux is asked to run for a task: `<the caller's $SHELL> -c <command + instrumentation>`,
// the window's environment and the run's capture file. The namespace is a plain path: planning
// only names files in it (the supervisor installs it on first use).

const NS = '/run/fleetcom/captures/4242-abcdefabcdef';

function plan(request: Partial<LaunchRequest> & { command: string }, inputs: Partial<LaunchInputs> = {}) {
  const installs: number[] = [];
  const home = tempDir();
  const launch = planLaunch(
    { id: 3, run: 1, cwd: home, env: { SHELL: '/bin/sh', HOME: home, PATH: '/usr/bin:/bin' }, ...request },
    {
      namespace: () => {
        installs.push(1);
        return NS;
      },
      capturePath,
      globalEnv: { PATH: '/usr/bin:/bin' },
      newId: () => ID,
      ...inputs,
    },
  );
  return { launch, home, installs: installs.length };
}

describe('planning a launch', () => {
  it('runs a plain command as one string through the caller\'s $SHELL, uninstrumented, without installing a namespace', () => {
    const command = `printf '%s\\n' "a b" $HOME; echo 'it'\\''s'`;
    const { launch, installs } = plan({ command });
    expect(launch).toMatchObject({ argv: ['/bin/sh', '-c', command], harness: null, captureFile: null, pinnedId: null, path: '/usr/bin:/bin' });
    expect(installs).toBe(0);
  });

  it('pins a new claude, points its settings hook at the namespace, and names the run\'s capture file', () => {
    const { launch, home } = plan({ command: 'claude' });
    const capture = `${NS}/task-3-1.json`;
    expect(launch).toMatchObject({ harness: 'claude', pinnedId: ID, targetId: null, captureFile: capture, home: join(home, '.claude') });
    expect(launch.argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(argvThroughShell(launch.argv[2]!)).toEqual(['claude', '--session-id', ID, '--settings', `${NS}/claude-settings.json`]);
    expect(launch.windowEnv.FLEETCOM_CAPTURE_FILE).toBe(capture);
  });

  it('runs an agent command it cannot vouch for as written (no id is pinned that it might not use)', () => {
    const { launch, installs } = plan({ command: "claude --model 'opus 4'" });
    expect(launch).toMatchObject({ argv: ['/bin/sh', '-c', "claude --model 'opus 4'"], harness: null, captureFile: null, pinnedId: null });
    expect(installs).toBe(0);
  });

  it('keeps the id a resume names as its target, and does not pin another', () => {
    const { launch } = plan({ command: `claude --resume '${ID}'` });
    expect(launch).toMatchObject({ harness: 'claude', pinnedId: ID, targetId: ID });
    expect(launch.argv[2]).not.toContain('--session-id');
  });

  it("uses the agent home the caller's environment names", () => {
    const { launch } = plan({ command: 'claude', env: { SHELL: '/bin/sh', HOME: '/nonexistent', CLAUDE_CONFIG_DIR: '/elsewhere/claude' } });
    expect(launch.home).toBe('/elsewhere/claude');
  });

  it('runs an agent uninstrumented when the namespace could not be installed', () => {
    const { launch } = plan({ command: 'claude' }, { namespace: () => null });
    expect(launch).toMatchObject({ argv: ['/bin/sh', '-c', 'claude'], harness: null, captureFile: null, pinnedId: null });
    expect(launch.windowEnv.FLEETCOM_CAPTURE_FILE).toBeUndefined();
  });

  it('gives grok no capture file (it has no hook to write one)', () => {
    expect(plan({ command: 'grok' }).launch).toMatchObject({ harness: 'grok', captureFile: null });
  });

  it("passes the caller's variables that tmux's global environment lacks, never a capture file of the caller's own", () => {
    const { launch } = plan({
      command: 'sleep 9',
      env: { SHELL: '/bin/sh', HOME: '/h', PATH: '/usr/bin:/bin', API_KEY: 'k', TMUX: '/tmp/t,1,0', FLEETCOM_CAPTURE_FILE: '/x/task-1-0.json' },
    });
    expect(launch.windowEnv).toEqual({ SHELL: '/bin/sh', HOME: '/h', API_KEY: 'k' });
  });

  it("drops claude's session markers inherited from tmux's global environment with `env -u`", () => {
    const { launch } = plan({ command: 'sleep 9' }, { globalEnv: { CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli' } });
    expect(launch.argv).toEqual(['env', '-u', 'CLAUDECODE', '-u', 'CLAUDE_CODE_ENTRYPOINT', '/bin/sh', '-c', 'sleep 9']);
  });

  it('finds a $SHELL given by name on the PATH', () => {
    const bin = tempDir();
    const shell = join(bin, 'mysh');
    writeFileSync(shell, '#!/bin/sh\n');
    chmodSync(shell, 0o755);
    expect(plan({ command: 'true', env: { SHELL: 'mysh', PATH: `/nonexistent:${bin}` } }).launch.argv.slice(0, 2)).toEqual([shell, '-c']);
  });

  it.each([
    ['a $SHELL that is not executable', { env: { SHELL: '/etc/passwd' } }, 'shell /etc/passwd (from $SHELL) is not an executable file'],
    ['a $SHELL found nowhere on the PATH', { env: { SHELL: 'nosuchsh', PATH: '/nonexistent' } }, 'shell nosuchsh (from $SHELL) is not an executable file'],
    ['a missing working directory', { cwd: '/nonexistent/dir' }, 'working directory /nonexistent/dir does not exist or is not a directory'],
    ['a relative working directory', { cwd: 'src' }, 'working directory src does not exist or is not a directory'],
  ])('refuses %s', (_, request, message) => {
    expect(() => plan({ command: 'true', ...request })).toThrow(message);
  });

  it('refuses a command and environment too big for one tmux message, naming the largest variable', () => {
    expect(() => plan({ command: 'true', env: { SHELL: '/bin/sh', BIG: 'x'.repeat(20_000) } })).toThrow(/tmux accepts about 16384; the largest variables are BIG \(20004 bytes\)/);
  });

  it("resumes the user thread at the root of a codex subagent thread's id, and says so (9.5)", () => {
    const codexHome = measured(tempDir());
    const { launch } = plan({ command: `codex resume '${C}'`, env: { SHELL: '/bin/sh', HOME: tempDir(), PATH: '/usr/bin:/bin', CODEX_HOME: codexHome } });
    expect(launch).toMatchObject({ command: `codex resume '${P}'`, harness: 'codex', targetId: P, pinnedId: P });
    expect(argvThroughShell(launch.argv[2]!).slice(0, 3)).toEqual(['codex', 'resume', P]);
    expect(launch.rebound).toBe(`codex resume '${C}' names a subagent thread of ${P}; runs codex resume '${P}' instead`);
  });

  it('starts codex fresh for a subagent thread whose root cannot be resumed, never the child', () => {
    const codexHome = tempDir();
    rollout(codexHome, C, CHILD);
    const { launch } = plan({ command: `codex resume '${C}'`, env: { SHELL: '/bin/sh', HOME: tempDir(), PATH: '/usr/bin:/bin', CODEX_HOME: codexHome } });
    expect(launch).toMatchObject({ command: 'codex', harness: 'codex', targetId: null, pinnedId: null });
    expect(launch.argv[2]).not.toContain(C);
    expect(launch.rebound).toContain('which has no rollout');
  });

  it('runs a resume of a conversation of its own as requested', () => {
    const { launch } = plan({ command: `claude --resume '${ID}'` });
    expect(launch).toMatchObject({ command: `claude --resume '${ID}'`, rebound: null });
  });
});
