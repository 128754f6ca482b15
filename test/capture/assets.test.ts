// The real assets, executed: the claude hook command through /bin/sh, and codex-notify.sh as
// codex runs it (by its #! line) and under every POSIX shell found here.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CAPTURE_RESTART_BYTES, CLAUDE_EVENTS_HOOK, CLAUDE_SETTINGS, CODEX_NOTIFY_SCRIPT, ENSURE_CAPTURE_DIR } from '../../src/capture/assets.js';

const CID = '019f5453-de22-7240-b2e5-0d32692aa6d9';
const PAYLOAD = JSON.stringify({
  type: 'agent-turn-complete',
  'thread-id': CID,
  'last-assistant-message': `100% done: %s %d \\n $(touch pwned) \`touch pwned\` 'single' "double" * ?`,
});

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fleetcom-assets-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('claude-settings.json', () => {
  it('starts with the contract\'s SessionStart capture hook, unchanged, and holds only the 8.9 hooks', () => {
    const settings = JSON.parse(CLAUDE_SETTINGS) as { hooks: Record<string, Array<{ hooks: Array<{ type: string; command: string }> }>> };
    const capture = `[ "\${CLAUDE_CODE_SESSION_KIND-}" = bg ] || [ -n "\${CLAUDE_JOB_DIR-}" ] || { ${ENSURE_CAPTURE_DIR} && cat > "$FLEETCOM_CAPTURE_FILE"; }`;
    expect(settings.hooks.SessionStart?.[0]).toEqual({ hooks: [{ type: 'command', command: capture }] });
    expect(Object.keys(settings.hooks).sort()).toEqual(['Notification', 'PostToolUse', 'PreToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    for (const [event, groups] of Object.entries(settings.hooks)) {
      // The tool hooks only for the tools that wait for the user: a shell per other tool call would be waste.
      const matcher = event.endsWith('ToolUse') ? { matcher: 'AskUserQuestion|ExitPlanMode' } : {};
      expect(groups.at(-1)).toEqual({ ...matcher, hooks: [{ type: 'command', command: CLAUDE_EVENTS_HOOK }] });
    }
    expect(JSON.stringify(JSON.parse(CLAUDE_SETTINGS))).toBe(CLAUDE_SETTINGS);
  });

  const hookCommand = (): string => {
    const settings = JSON.parse(CLAUDE_SETTINGS) as {
      hooks: { SessionStart: Array<{ hooks: Array<{ type: string; command: string }> }> };
    };
    const hook = settings.hooks.SessionStart[0]?.hooks[0];
    expect(hook?.type).toBe('command');
    return hook?.command ?? '';
  };

  it('its hook copies the payload on stdin into FLEETCOM_CAPTURE_FILE byte for byte', () => {
    const file = join(tmp, 'dir with space $HOME', 'task-1-1.json');
    mkdirSync(join(tmp, 'dir with space $HOME'));
    const payload = `{"session_id":"c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d","cwd":"/w é","source":"startup"}\n\u0000tail`;
    const run = spawnSync('/bin/sh', ['-c', hookCommand()], {
      input: payload,
      cwd: tmp,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', FLEETCOM_CAPTURE_FILE: file },
    });
    expect(run.status).toBe(0);
    expect(readFileSync(file)).toEqual(Buffer.from(payload, 'utf8'));
  });

  it('its hook replaces an earlier payload (a /clear rewrites the file)', () => {
    const file = join(tmp, 'task-1-1.json');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', FLEETCOM_CAPTURE_FILE: file };
    spawnSync('/bin/sh', ['-c', hookCommand()], { input: 'x'.repeat(1000), env });
    spawnSync('/bin/sh', ['-c', hookCommand()], { input: '{"session_id":"b"}', env });
    expect(readFileSync(file, 'utf8')).toBe('{"session_id":"b"}');
  });

  // A tmp cleaner removed the namespace; the supervisor makes it again within 2 s, but a /clear
  // in that gap must not lose its new id.
  it('its hook makes a removed namespace again (0700, and its missing root) and writes the capture into it', () => {
    const file = join(tmp, 'root', 'ns', 'task-1-1.json');
    const run = spawnSync('/bin/sh', ['-c', `umask 000; ${hookCommand()}`], {
      input: '{"session_id":"after-clear"}',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', FLEETCOM_CAPTURE_FILE: file },
    });
    expect(run.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('{"session_id":"after-clear"}');
    expect(statSync(join(tmp, 'root', 'ns')).mode & 0o777).toBe(0o700);
    expect(statSync(join(tmp, 'root')).mode & 0o777).toBe(0o700);
  });

  it.each([
    ['a symbolic link', (ns: string) => { mkdirSync(join(tmp, 'elsewhere')); symlinkSync(join(tmp, 'elsewhere'), ns); }],
    ['writable by group', (ns: string) => { mkdirSync(ns); chmodSync(ns, 0o770); }],
    ['writable by others', (ns: string) => { mkdirSync(ns); chmodSync(ns, 0o703); }],
  ])('its hook writes nothing into a namespace that is %s', (_label, plant) => {
    const ns = join(tmp, 'ns');
    plant(ns);
    const file = join(ns, 'task-1-1.json');
    spawnSync('/bin/sh', ['-c', hookCommand()], {
      input: '{"session_id":"x"}',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', FLEETCOM_CAPTURE_FILE: file },
    });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(tmp, 'elsewhere', 'task-1-1.json'))).toBe(false);
  });

  it.each([
    ['a background worker', { CLAUDE_CODE_SESSION_KIND: 'bg' }],
    ['a job worker', { CLAUDE_JOB_DIR: '/home/u/.claude/jobs/71811fda' }],
  ])('its hook leaves the file alone, exiting 0, when %s runs it', (_label, marker) => {
    const file = join(tmp, 'task-1-0.json');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', FLEETCOM_CAPTURE_FILE: file };
    spawnSync('/bin/sh', ['-c', hookCommand()], { input: '{"session_id":"mine"}', env });
    const run = spawnSync('/bin/sh', ['-c', hookCommand()], { input: '{"session_id":"fork"}', env: { ...env, ...marker } });
    expect(run.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('{"session_id":"mine"}');
  });
});

/** How the notifier is started: by its #! line (as codex does), or by a named shell. */
const shells: Array<[string, string[]]> = [['#! line (/bin/sh)', []]];
for (const [name, argv] of [
  ['dash', ['/usr/bin/dash']],
  ['dash', ['/bin/dash']],
  ['bash --posix', ['/bin/bash', '--posix']],
  ['busybox sh', ['/bin/busybox', 'sh']],
] as const) {
  if (existsSync(argv[0]) && !shells.some(([n]) => n === name)) shells.push([name, [...argv]]);
}

describe.each(shells)('the claude attention hook run by %s', (_name, shell) => {
  const SID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
  const hook = (input: string, capture: string | undefined, umask = '022') =>
    spawnSync(shell[0] ?? '/bin/sh', [...shell.slice(1), '-c', `umask ${umask}; ${CLAUDE_EVENTS_HOOK}`], {
      input,
      cwd: tmp,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, ...(capture ? { FLEETCOM_CAPTURE_FILE: capture } : {}) },
    });

  it('appends each payload as one line to <capture minus .json>.events, 0600, printing nothing', () => {
    const capture = join(tmp, 'task-2-0.json');
    const first = `{"session_id":"${SID}","hook_event_name":"UserPromptSubmit","prompt":"$(touch pwned) %s \`x\`"}`;
    const run = hook(first, capture);
    expect([run.status, run.stdout, run.stderr]).toEqual([0, '', '']);
    hook(`{"session_id":"${SID}",\n"hook_event_name":"Stop"}`, capture);
    expect(readFileSync(join(tmp, 'task-2-0.events'), 'utf8')).toBe(`${first}\n{"session_id":"${SID}","hook_event_name":"Stop"}\n`);
    expect(statSync(join(tmp, 'task-2-0.events')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(tmp, 'pwned'))).toBe(false);
  });

  it('restarts a file grown past 256 KiB with this payload alone', () => {
    const capture = join(tmp, 'task-2-0.json');
    writeFileSync(join(tmp, 'task-2-0.events'), 'x'.repeat(CAPTURE_RESTART_BYTES + 1));
    expect(hook('{"hook_event_name":"Stop"}', capture).status).toBe(0);
    expect(readFileSync(join(tmp, 'task-2-0.events'), 'utf8')).toBe('{"hook_event_name":"Stop"}\n');
    expect(readdirSync(tmp)).toEqual(['task-2-0.events']);
  });

  it('exits 0 and writes nothing without FLEETCOM_CAPTURE_FILE, with an empty payload, or an unwritable place', () => {
    expect(hook('{}', undefined).status).toBe(0);
    expect(hook('', join(tmp, 'task-2-0.json')).status).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
    mkdirSync(join(tmp, 'shared'), { mode: 0o777 });
    chmodSync(join(tmp, 'shared'), 0o777);
    expect(hook('{}', join(tmp, 'shared', 'task-2-0.json')).status).toBe(0);
    expect(readdirSync(join(tmp, 'shared'))).toEqual([]);
  });

  it('makes a removed namespace again (0700) and appends there', () => {
    expect(hook('{"hook_event_name":"Stop"}', join(tmp, 'gone', 'task-2-0.json')).status).toBe(0);
    expect(readFileSync(join(tmp, 'gone', 'task-2-0.events'), 'utf8')).toBe('{"hook_event_name":"Stop"}\n');
    expect(statSync(join(tmp, 'gone')).mode & 0o777).toBe(0o700);
  });
});

describe.each(shells)('codex-notify.sh run by %s', (_name, shell) => {
  let script: string;
  let cwd: string;
  let recorder: string;
  let recorded: string;
  let capture: string;

  beforeEach(() => {
    script = join(tmp, 'codex-notify.sh');
    writeFileSync(script, CODEX_NOTIFY_SCRIPT);
    chmodSync(script, 0o700);
    // A working directory where every glob in the chain would match something.
    cwd = join(tmp, 'cwd');
    mkdirSync(cwd);
    for (const name of ['a.txt', 'b.txt', 'two', 'words', 'x']) writeFileSync(join(cwd, name), '');
    mkdirSync(join(tmp, 'my tools'));
    recorder = join(tmp, 'my tools', 'rec [1]*');
    recorded = join(tmp, 'argv');
    writeFileSync(recorder, `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done > "$REC_OUT"\nexit "\${REC_EXIT:-0}"\n`);
    chmodSync(recorder, 0o755);
    capture = join(tmp, 'ns', 'task-7-1.json');
    mkdirSync(join(tmp, 'ns'));
  });

  const notify = (env: Record<string, string>, args: string[] = [PAYLOAD]) => {
    const [program, ...pre] = shell.length > 0 ? shell : [script];
    const run = spawnSync(program ?? script, shell.length > 0 ? [...pre, script, ...args] : args, {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', REC_OUT: recorded, ...env },
      encoding: 'utf8',
    });
    return run;
  };
  const recordedArgv = (): string[] | null =>
    existsSync(recorded) ? readFileSync(recorded, 'utf8').split('\0').slice(0, -1) : null;
  const cwdUntouched = () => expect(readdirSync(cwd).sort()).toEqual(['a.txt', 'b.txt', 'two', 'words', 'x']);

  it('with no chain appends the payload and a newline to the capture file, then exits 0', () => {
    const first = notify({ FLEETCOM_CAPTURE_FILE: capture });
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    expect(readFileSync(capture, 'utf8')).toBe(`${PAYLOAD}\n`);
    const second = notify({ FLEETCOM_CAPTURE_FILE: capture }, ['{"second":1}']);
    expect(second.status).toBe(0);
    expect(readFileSync(capture, 'utf8')).toBe(`${PAYLOAD}\n{"second":1}\n`);
    cwdUntouched();
  });

  it('runs the chain split on newlines only, never globbed, with the payload appended', () => {
    const chain = [recorder, 'two words', '*', '?.txt', '[ab].txt', '$HOME', '~', ' lead\ttab '];
    const run = notify({ FLEETCOM_CAPTURE_FILE: capture, FLEETCOM_NOTIFY_CHAIN: chain.join('\n') });
    expect(run.status).toBe(0);
    expect(recordedArgv()).toEqual([...chain.slice(1), PAYLOAD]);
    expect(readFileSync(capture, 'utf8')).toBe(`${PAYLOAD}\n`);
    cwdUntouched();
  });

  it('writes the capture even when the chained program fails', () => {
    const run = notify({ FLEETCOM_CAPTURE_FILE: capture, FLEETCOM_NOTIFY_CHAIN: recorder, REC_EXIT: '3' });
    expect(run.status).toBe(3);
    expect(recordedArgv()).toEqual([PAYLOAD]);
    expect(readFileSync(capture, 'utf8')).toBe(`${PAYLOAD}\n`);
  });

  it('writes the capture even when the chained program does not exist', () => {
    const run = notify({ FLEETCOM_CAPTURE_FILE: capture, FLEETCOM_NOTIFY_CHAIN: join(tmp, 'missing') });
    expect(run.status).not.toBe(0);
    expect(readFileSync(capture, 'utf8')).toBe(`${PAYLOAD}\n`);
  });

  it.each([
    ['unset', {}],
    ['empty', { FLEETCOM_CAPTURE_FILE: '' }],
  ])('still runs the chain when the capture path is %s, writing nothing', (_how, env: Record<string, string>) => {
    const run = notify({ ...env, FLEETCOM_NOTIFY_CHAIN: `${recorder}\n--flag` });
    expect(run.status).toBe(0);
    expect(recordedArgv()).toEqual(['--flag', PAYLOAD]);
    expect(readdirSync(join(tmp, 'ns'))).toEqual([]);
    cwdUntouched();
  });

  it('executes nothing when the inherited chain was overwritten by an empty one', () => {
    const run = notify({ FLEETCOM_CAPTURE_FILE: capture, FLEETCOM_NOTIFY_CHAIN: '' });
    expect(run.status).toBe(0);
    expect(recordedArgv()).toBeNull();
    expect(readFileSync(capture, 'utf8')).toBe(`${PAYLOAD}\n`);
  });

  it('restarts a capture file grown past 256 KiB with this payload alone, by rename', () => {
    writeFileSync(capture, `${'x'.repeat(CAPTURE_RESTART_BYTES)}\n`);
    const before = statSync(capture).ino;
    const run = notify({ FLEETCOM_CAPTURE_FILE: capture });
    expect(run.status).toBe(0);
    expect(readFileSync(capture, 'utf8')).toBe(`${PAYLOAD}\n`);
    expect(statSync(capture).ino).not.toBe(before);
    expect(readdirSync(join(tmp, 'ns'))).toEqual(['task-7-1.json']);
  });

  it('appends in place to a file of exactly 256 KiB (not past it)', () => {
    writeFileSync(capture, 'x'.repeat(CAPTURE_RESTART_BYTES));
    const before = statSync(capture).ino;
    notify({ FLEETCOM_CAPTURE_FILE: capture });
    expect(statSync(capture).size).toBe(CAPTURE_RESTART_BYTES + PAYLOAD.length + 1);
    expect(statSync(capture).ino).toBe(before);
  });

  it('records no empty payload (it would erase the last good one at the restart size)', () => {
    writeFileSync(capture, `${PAYLOAD}\n`);
    const run = notify({ FLEETCOM_CAPTURE_FILE: capture, FLEETCOM_NOTIFY_CHAIN: recorder }, ['']);
    expect(run.status).toBe(0);
    expect(readFileSync(capture, 'utf8')).toBe(`${PAYLOAD}\n`);
    expect(recordedArgv()).toEqual(['']);
  });

  it('passes no payload argument when codex gave none', () => {
    const run = notify({ FLEETCOM_CAPTURE_FILE: capture, FLEETCOM_NOTIFY_CHAIN: `${recorder}\na` }, []);
    expect(run.status).toBe(0);
    expect(recordedArgv()).toEqual(['a']);
    expect(existsSync(capture)).toBe(false);
  });
});

describe('codex-notify.sh text', () => {
  it('is plain POSIX sh: #!/bin/sh and no bash-only constructs', () => {
    expect(CODEX_NOTIFY_SCRIPT.startsWith('#!/bin/sh\n')).toBe(true);
    for (const bashism of ['[[', '==', 'function ', 'local ', '$(<', '<<<', '&>', 'source ', '${!', 'echo -', 'pipefail', '$RANDOM']) {
      expect(CODEX_NOTIFY_SCRIPT).not.toContain(bashism);
    }
  });

  it('passes `sh -n`', () => {
    expect(spawnSync('/bin/sh', ['-n', '-c', CODEX_NOTIFY_SCRIPT]).status).toBe(0);
  });
});
