import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentProgram, harnessFor, type AgentProcess, type HarnessName } from '../../src/harness/index.js';
import { CID, ID, OTHER, tempDir, write } from './fixtures.js';

// The probes of `fleetcom adopt`: is a process started by hand this agent, and which
// conversation do its own traces name? Each table row is a process as /proc showed it.

const CWD = '/w/project';

function process(fields: Partial<AgentProcess> = {}): AgentProcess {
  return { pid: 4242, start: '9001', argv: ['claude'], env: {}, cwd: CWD, open: { files: [], daemonFiles: [] }, ...fields };
}

const traces = (agent: HarnessName, proc: AgentProcess, home: string) => harnessFor(agent).probe.traces(proc, home);

describe('agentProgram: which process is an agent, and the word a resume command starts with', () => {
  const PATH = ['/usr/local/bin', '/usr/bin'];
  it.each([
    ['claude', ['claude'], 'claude'],
    ['claude', ['claude', '--model', 'opus'], 'claude'],
    ['claude', ['/opt/claude/bin/claude'], '/opt/claude/bin/claude'],
    ['claude', ['./claude'], './claude'],
    // a #!/usr/bin/env node script, as the kernel runs it: the script as found on PATH
    ['codex', ['node', '/usr/local/bin/codex'], 'codex'],
    ['codex', ['node', '/home/u/.cache/x/node_modules/.bin/codex'], '/home/u/.cache/x/node_modules/.bin/codex'],
    ['codex', ['/usr/bin/node', '/usr/local/bin/codex', 'resume', CID], 'codex'],
    ['grok', ['bun', '/usr/bin/grok'], 'grok'],
    // a word a resume command could not start with is written as the bare name
    ['claude', ['/opt/my tools/claude'], 'claude'],
    ['claude', ['/opt/$x/claude'], 'claude'],
  ] as const)('%s %j → %s', (agent, argv, word) => expect(agentProgram(agent, argv, PATH)).toBe(word));

  it.each([
    ['claude', ['claudius']],
    ['claude', ['node', '/usr/bin/other']],
    ['claude', ['sh', '-c', 'claude']],
    ['codex', ['codex.js']],
    ['codex', ['python', '/usr/bin/codex']],
    ['grok', []],
  ] as const)('%s is not %j', (agent, argv) => expect(agentProgram(agent, argv, PATH)).toBeNull());

  it('each harness answers through its probe', () => {
    expect(harnessFor('codex').probe.program(['node', '/usr/local/bin/codex'], ['/usr/local/bin'])).toBe('codex');
    expect(harnessFor('claude').probe.program(['codex'], [])).toBeNull();
  });
});

describe('claude: the registry record of that very process', () => {
  const registry = (home: string, record: object, pid = 4242) =>
    write(path.join(home, 'sessions', `${pid}.json`), JSON.stringify({ pid, cwd: CWD, procStart: '9001', kind: 'interactive', ...record }));

  it('names the conversation of a record whose pid and procStart are this process', () => {
    const home = tempDir();
    const file = registry(home, { sessionId: ID, status: 'idle' });
    expect(traces('claude', process(), home)).toEqual({
      conversation: { kind: 'id', id: ID, from: `claude registry ${file}` },
      attention: { attention: 'waiting', message: null },
    });
  });

  it('follows /clear: the record names the new conversation', () => {
    const home = tempDir();
    registry(home, { sessionId: ID });
    registry(home, { sessionId: OTHER, status: 'busy' });
    expect(traces('claude', process(), home)).toMatchObject({ conversation: { id: OTHER }, attention: { attention: 'working' } });
  });

  it.each([
    ['a record of an earlier process with that pid', { sessionId: ID, procStart: '17' }, /earlier process that had pid 4242/],
    ['a record without procStart', { sessionId: ID, procStart: undefined }, /no procStart/],
    ['a record naming another directory', { sessionId: ID, cwd: '/elsewhere' }, /names the directory \/elsewhere/],
    ['a record naming no valid id', { sessionId: ID.toUpperCase() }, /not a conversation id/],
  ])('names none for %s', (_label, record, why) => {
    const home = tempDir();
    registry(home, record);
    const result = traces('claude', process(), home);
    expect(result.conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(why) });
  });

  it('reports no attention from a record that is not this process', () => {
    const home = tempDir();
    registry(home, { sessionId: ID, procStart: '17', status: 'busy' });
    expect(traces('claude', process(), home).attention).toBeNull();
  });

  it('names none before claude wrote its record, and says why a child session never will', () => {
    const home = tempDir();
    expect(traces('claude', process(), home).conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(/no registry record .* yet/) });
    const child = process({ env: { CLAUDE_CODE_CHILD_SESSION: '1' } });
    expect(traces('claude', child, home).conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(/CLAUDE_CODE_CHILD_SESSION/) });
  });

  it.each([
    ['torn JSON', '{"pid":4242,"sess'],
    ['snake_case keys', JSON.stringify({ pid: 4242, session_id: ID })],
    ['a record naming another pid', JSON.stringify({ pid: 7, sessionId: ID, procStart: '9001' })],
  ])('cannot read a record of %s', (_label, text) => {
    const home = tempDir();
    write(path.join(home, 'sessions', '4242.json'), text);
    expect(traces('claude', process(), home).conversation).toMatchObject({ kind: 'unreadable' });
  });

  it('cannot read a record that is a directory', () => {
    const home = tempDir();
    write(path.join(home, 'sessions', '4242.json', 'x'), '');
    expect(traces('claude', process(), home).conversation).toMatchObject({ kind: 'unreadable', why: expect.stringContaining('EISDIR') });
  });

  it.each([
    ['busy', undefined, { attention: 'working', message: null }],
    ['idle', undefined, { attention: 'waiting', message: null }],
    ['waiting', 'permission prompt', { attention: 'permission', message: 'permission prompt' }],
    ['waiting', undefined, { attention: 'permission', message: null }],
    ['compacting', undefined, null],
  ])('status %s (%s) is attention %j', (status, waitingFor, attention) => {
    const home = tempDir();
    registry(home, { sessionId: ID, status, waitingFor });
    expect(traces('claude', process(), home).attention).toEqual(attention);
  });
});

describe('codex: the rollout the process holds open', () => {
  const rollout = (home: string, id: string, source: unknown = 'user') =>
    write(
      path.join(home, 'sessions', '2026', '07', '12', `rollout-2026-07-12T10-00-00-${id}.jsonl`),
      `${JSON.stringify({ type: 'session_meta', payload: { id, cwd: CWD, thread_source: source } })}\n`,
    );
  const SUB = '019f5453-de22-7240-b2e5-0d32692aa6da';
  const codex = (files: string[], daemonFiles: Array<{ pid: number; file: string }> = []) =>
    process({ argv: ['node', '/usr/bin/codex'], open: { files, daemonFiles } });

  it('names the one user rollout it holds, ignoring other files and its subagents', () => {
    const home = tempDir();
    const own = rollout(home, CID);
    const sub = rollout(home, SUB, 'subagent');
    const result = traces('codex', codex(['/dev/pts/3', path.join(home, 'state_5.sqlite'), own, sub, own]), home);
    expect(result).toEqual({ conversation: { kind: 'id', id: CID, from: `the rollout it holds open, ${own}` }, attention: null });
  });

  it('treats an older subagent record (source.subagent) as a subagent too', () => {
    const home = tempDir();
    const sub = rollout(home, SUB, { subagent: { thread_spawn: { parent_thread_id: CID } } });
    expect(traces('codex', codex([sub]), home).conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(/only subagent/) });
  });

  it('names none when it holds two conversations', () => {
    const home = tempDir();
    const result = traces('codex', codex([rollout(home, CID), rollout(home, SUB)]), home);
    expect(result.conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(/2 conversations open/) });
  });

  it("names none when only codex's app-server daemon holds the rollout: it serves every TUI connected to it", () => {
    const home = tempDir();
    const result = traces('codex', codex([], [{ pid: 77, file: rollout(home, CID) }]), home);
    expect(result.conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(/app-server daemon \(pid 77\)/) });
  });

  it('ignores rollouts outside its home', () => {
    const home = tempDir();
    const elsewhere = rollout(tempDir(), CID);
    expect(traces('codex', codex([elsewhere]), home).conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(/no rollout open/) });
  });

  it('names none when a held rollout cannot be read', () => {
    const home = tempDir();
    const torn = write(path.join(home, 'sessions', '2026', '07', '12', `rollout-x-${CID}.jsonl`), '{"type":');
    expect(traces('codex', codex([torn]), home).conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(/cannot be read/) });
  });

  it('cannot read the traces of a process whose open files cannot be listed', () => {
    const proc = process({ argv: ['codex'], open: { unreadable: '/proc/4242/fd: EACCES' } });
    expect(traces('codex', proc, tempDir()).conversation).toEqual({ kind: 'unreadable', why: 'its open files cannot be listed (/proc/4242/fd: EACCES)' });
  });
});

describe('grok: the conversation its argv names', () => {
  const grok = (...args: string[]) => traces('grok', process({ argv: ['node', '/usr/bin/grok', ...args] }), '/nowhere');
  it.each([
    [['--session-id', ID], ID],
    [['--resume', ID], ID],
    [['-r', ID], ID],
    [[`--resume=${ID}`, '--model', 'x'], ID],
    [['--session-id', ID, '--resume', ID], ID],
  ])('%j names %s', (args, id) => expect(grok(...args).conversation).toEqual({ kind: 'id', id, from: 'its argv' }));

  it.each([
    [[], /names no conversation/],
    [['--session-id', ID, '--resume', OTHER], /names 2 conversations/],
    [['--resume', 'latest'], /not a conversation id/],
  ])('%j names none', (args, why) => expect(grok(...args).conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(why) }));
});

describe('gemini and opencode: only their argv names a conversation', () => {
  const SES = 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q';
  const run = (agent: HarnessName, argv: string[]) => traces(agent, process({ argv }), '/nowhere').conversation;
  it.each([
    ['gemini', ['node', '/usr/local/bin/gemini', '--session-id', ID], ID],
    ['gemini', ['node', '/usr/local/bin/gemini', '-r', ID, '--model', 'x'], ID],
    ['opencode', ['opencode', '-s', SES], SES],
    ['opencode', ['/opt/opencode/bin/opencode', `--session=${SES}`], SES],
  ] as const)('%s %j names %s', (agent, argv, id) => expect(run(agent, [...argv])).toEqual({ kind: 'id', id, from: 'its argv' }));

  it.each([
    ['gemini', ['gemini'], /names no conversation \(gemini's session files name no process; its exit hint will tell\)/],
    ['gemini', ['gemini', '--resume', 'latest'], /"latest", not a conversation id/],
    ['opencode', ['opencode'], /names no conversation \(opencode's database names no process of a session; its exit hint will tell\)/],
    ['opencode', ['opencode', '--continue'], /names no conversation/],
    ['opencode', ['opencode', '-s', ID], /not a conversation id/],
  ] as const)('%s %j names none', (agent, argv, why) => expect(run(agent, [...argv])).toMatchObject({ kind: 'none', why: expect.stringMatching(why) }));

  it('are the agents their programs run', () => {
    expect(harnessFor('gemini').probe.program(['node', '/usr/local/bin/gemini'], ['/usr/local/bin'])).toBe('gemini');
    expect(harnessFor('opencode').probe.program(['opencode', '-s', SES], [])).toBe('opencode');
    expect(harnessFor('opencode').probe.program(['gemini'], [])).toBeNull();
  });
});
