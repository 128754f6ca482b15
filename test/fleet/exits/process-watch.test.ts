import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canWatchProcesses, parseStat } from '../../../src/fleet/exits/process-watch.js';

// A /proc/<pid>/stat line: pid (comm) state, then fields 4..52; exit_code is the last.
const stat = (comm: string, state: string, exitCode: string | null) =>
  `4242 (${comm}) ${state} ${Array.from({ length: 48 }, (_, i) => String(i + 1)).join(' ')}${exitCode === null ? '' : ` ${exitCode}`}\n`;

describe('reading /proc/<pid>/stat', () => {
  it.each([
    ['a running shell', stat('sh', 'S', '0'), { state: 'S', exitStatus: 0 }],
    ['a zombie that exited 7', stat('claude', 'Z', String(7 << 8)), { state: 'Z', exitStatus: 7 }],
    ['a zombie that exited 255', stat('x', 'Z', String(255 << 8)), { state: 'Z', exitStatus: 255 }],
    ['a zombie of SIGKILL', stat('x', 'Z', '9'), { state: 'Z', exitStatus: null }],
    ['a zombie of SIGSEGV with a core', stat('x', 'Z', String(11 | 0x80)), { state: 'Z', exitStatus: null }],
    ['a name holding ") Z (" and spaces', stat('a) Z (b c', 'S', '0'), { state: 'S', exitStatus: 0 }],
    ['a kernel without exit_code', stat('x', 'Z', null), { state: 'Z', exitStatus: null }],
  ])('reads %s', (_label, text, expected) => expect(parseStat(text)).toEqual(expected));

  it.each([
    ['an empty read', ''],
    ['no closing parenthesis', '4242 (sh S 1 2 3'],
    ['a state that is not a letter', '4242 (sh) ? 1 2'],
  ])('refuses %s', (_label, text) => expect(parseStat(text)).toBeNull());
});

describe('a system without the proc tree (macOS)', () => {
  it('is told apart from Linux, so the watch is not started there', () => {
    expect(canWatchProcesses()).toBe(true);
    expect(canWatchProcesses(join(tmpdir(), `no-proc-${process.pid}`))).toBe(false);
  });
});
