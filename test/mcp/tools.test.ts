// The words each MCP tool's input makes: operands after `--`, the waits bounded per call.
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ARGV, INPUTS, MAX_WAIT_SECONDS, promptArgv, stdinWord } from '../../src/mcp/tools.js';

describe('the tools’ command lines', () => {
  it.each([
    ['ls', ARGV.ls({}), ['ls', '--json']],
    ['ls of every host', ARGV.ls({ allHosts: true }), ['ls', '--json', '--all-hosts']],
    ['run', ARGV.run({ command: 'claude --model x', cwd: '/p', name: 'n', group: 'g', worktree: 'feat', host: 'gpu' }),
      ['run', '--cwd', '/p', '--name', 'n', '--group', 'g', '--worktree', 'feat', '--host', 'gpu', '--', 'claude --model x']],
    ['send', ARGV.send({ task: 3, text: '--now\nrm -rf /' }), ['send', '--json', '--timeout', '25.0', '--', '3', '--now\nrm -rf /']],
    ['send now, on a host', ARGV.send({ task: '%12', text: 'hi', now: true, timeoutSeconds: 5, host: 'gpu' }), ['send', '--json', '--timeout', '5.0', '--now', '--host', 'gpu', '--', '%12', 'hi']],
    ['wait', ARGV.wait({ tasks: [1, '-2'], mode: 'any', until: 'needs-you', turn: 2 }),
      ['wait', '--json', '--timeout', '25.0', '--any', '--until', 'needs-you', '--turn', '2', '--', '1', '-2']],
    ['output', ARGV.output({ task: 3, turn: 1, screen: true }), ['output', '--json', '--turn', '1', '--screen', '--', '3']],
    ['history', ARGV.history({ cwd: '/p', all: true, agent: 'codex', search: 'flaky', limit: 5 }),
      ['history', '--json', '--cwd', '/p', '--all', '--agent', 'codex', '--search', 'flaky', '--limit', '5']],
  ])('%s', (_label, argv, expected) => {
    expect(argv).toEqual(expected);
  });

  it.each([[600, '25.0'], [25, '25.0'], [2.5, '2.5'], [1e-9, '0.1'], [undefined, '25.0']])('bounds a wait of %s s to %s s in one call', (asked, words) => {
    expect(ARGV.wait({ tasks: [1], timeoutSeconds: asked })[3]).toBe(words);
    expect(ARGV.send({ task: 1, text: 'x', timeoutSeconds: asked })[3]).toBe(words);
    expect(Number(words)).toBeLessThanOrEqual(MAX_WAIT_SECONDS);
  });

  it("sends run's prompt to the task it started, on its host", () => {
    expect(promptArgv({ command: 'codex', prompt: 'go', promptTimeoutSeconds: 9, host: 'gpu' }, '4')).toEqual(['send', '--json', '--timeout', '9.0', '--host', 'gpu', '--', '4', 'go']);
    expect(promptArgv({ command: 'codex' }, '4')).toBeNull();
  });

  it('finds a lone - (standard input to the CLI) in any word', () => {
    expect(stdinWord(ARGV.send({ task: 1, text: '-' }))).toBe(true);
    expect(stdinWord(ARGV.send({ task: 1, text: '- a list' }))).toBe(false);
  });

  it('validates input with the schemas the clients see', () => {
    const wait = z.object(INPUTS.wait);
    expect(wait.safeParse({ tasks: [] }).success).toBe(false);
    expect(wait.safeParse({ tasks: [3, '%1'], mode: 'some' }).success).toBe(false);
    expect(wait.safeParse({ tasks: [3, '%1'], timeoutSeconds: 600 }).success).toBe(true);
    expect(z.object(INPUTS.send).safeParse({ task: 0, text: 'x' }).success).toBe(false);
    expect(z.object(INPUTS.send).safeParse({ task: 1, text: '' }).success).toBe(false);
  });
});
