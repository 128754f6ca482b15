// fleetcom's qwen overlay run as qwen 0.24.4 runs a settings hook: each string's `$NAME` and
// `${NAME}` expanded from the environment first (its settings loader), then `bash -c` with the
// payload on stdin. The capture and events land where FLEETCOM_CAPTURE_FILE says, whatever the
// environment holds; a qwen started by a qwen tool (QWEN_CODE=1) writes nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { QWEN_DEFAULTS, QWEN_HOOK_EVENTS, unexpandable } from '../../src/harness/qwen/hooks.js';
import { ID, tempDir } from './fixtures.js';

const shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
const start = JSON.stringify({ session_id: ID, hook_event_name: 'SessionStart', source: 'clear', cwd: '/w' });

interface Overlay {
  $version: number;
  hooks: Record<string, Array<{ hooks: Array<{ type: string; command: string }> }>>;
}

/** A namespace directory (0700, as fleetcom makes it) and the capture file a task of it would write. */
function namespace(): { dir: string; capture: string } {
  const dir = tempDir();
  return { dir, capture: path.join(dir, 'task-3-0.json') };
}

/** qwen's expansion of a settings string (resolveEnvVarsInString of 0.24.4). */
const expand = (text: string, env: Record<string, string>) => text.replace(/\$(?:(\w+)|{([^}]+)})/g, (m, a?: string, b?: string) => env[(a ?? b)!] ?? m);

function run(event: string, payload: string, env: Record<string, string>): number[] {
  const overlay = JSON.parse(QWEN_DEFAULTS) as Overlay;
  return (overlay.hooks[event] ?? []).flatMap((group) => group.hooks.map((hook) => {
    const r = spawnSync(shell, ['-c', expand(hook.command, env)], { input: payload, env, encoding: 'utf8' });
    expect(r.stdout).toBe('');
    return r.status ?? -1;
  }));
}

describe("fleetcom's qwen overlay", () => {
  it('is a settings file of the current version holding a hook for each event fleetcom reads', () => {
    const overlay = JSON.parse(QWEN_DEFAULTS) as Overlay;
    expect(overlay.$version).toBe(4);
    expect(Object.keys(overlay.hooks).sort()).toEqual([...QWEN_HOOK_EVENTS].sort());
    expect(overlay.hooks.SessionStart).toHaveLength(2);
    // No variable a user may have set: qwen would expand it before the shell sees the command.
    for (const groups of Object.values(overlay.hooks)) for (const g of groups) for (const h of g.hooks) expect(h.command).not.toMatch(/\$\w|\$\{\w+\}/);
    expect(unexpandable('x=$a; "$FLEETCOM_CAPTURE_FILE" ${b-} $$ $(c)')).toBe('x=${a-}; "${FLEETCOM_CAPTURE_FILE-}" ${b-} $$ $(c)');
  });

  it('captures SessionStart and appends every payload to the events file, whatever variables are set', () => {
    const { capture } = namespace();
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', FLEETCOM_CAPTURE_FILE: capture, d: '/nowhere', f: '/nowhere/f', p: 'junk', s: '9' };
    expect(run('SessionStart', start, env)).toEqual([0, 0]);
    const stop = JSON.stringify({ session_id: ID, hook_event_name: 'Stop', last_assistant_message: 'done' });
    expect(run('Stop', stop, env)).toEqual([0]);
    expect(readFileSync(capture, 'utf8')).toBe(start);
    expect(readFileSync(capture.replace(/\.json$/, '.events'), 'utf8')).toBe(`${start}\n${stop}\n`);
  });

  it('writes nothing for a qwen a qwen tool started, nor without the variable, and never fails the hook', () => {
    const { capture } = namespace();
    const base = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    expect(run('SessionStart', start, { ...base, FLEETCOM_CAPTURE_FILE: capture, QWEN_CODE: '1' })).toEqual([0, 0]);
    expect(run('SessionStart', start, base)).toEqual([0, 0]);
    expect(run('SessionStart', start, { ...base, FLEETCOM_CAPTURE_FILE: 'relative.json' })).toEqual([0, 0]);
    expect(existsSync(capture) || existsSync(capture.replace(/\.json$/, '.events'))).toBe(false);
    // fleetcom's own launch clears the variable: an empty one is no qwen tool's.
    expect(run('Stop', '{"hook_event_name":"Stop"}', { ...base, FLEETCOM_CAPTURE_FILE: capture, QWEN_CODE: '' })).toEqual([0]);
    expect(existsSync(capture.replace(/\.json$/, '.events'))).toBe(true);
  });

  it('makes a swept namespace again (0700) and writes there: a /clear in that moment is not lost', () => {
    const { dir, capture } = namespace();
    rmSync(dir, { recursive: true });
    expect(run('SessionStart', start, { PATH: process.env.PATH ?? '/usr/bin:/bin', FLEETCOM_CAPTURE_FILE: capture })).toEqual([0, 0]);
    expect(readFileSync(capture, 'utf8')).toBe(start);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
