import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { conversationLiveness, describePlace, readClaudeRegistry, sharedOpenFiles } from '../../src/ownership/index.js';
import { fakeProc, tempRoot, type FakeProcess } from './proc-tree.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const OTHER = '11111111-2222-4333-8444-555555555555';
const CID = '019f5453-de22-7240-b2e5-0d32692aa6d9';

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const done of cleanup) done();
  cleanup = [];
});

function world(processes: FakeProcess[]) {
  const t = tempRoot();
  cleanup.push(t.done);
  const home = join(t.dir, 'claude-home');
  return { dir: t.dir, home, proc: fakeProc(t.dir, processes) };
}

/** A registry record as claude 2.1.197 writes it. */
function record(home: string, pid: number, fields: Record<string, unknown>, name = `${pid}.json`): void {
  mkdirSync(join(home, 'sessions'), { recursive: true });
  writeFileSync(join(home, 'sessions', name), JSON.stringify({ pid, cwd: '/w', startedAt: 1, version: '2.1.197', kind: 'interactive', status: 'idle', ...fields }));
}

describe('claude: the registry record names the conversation', () => {
  it('is live when the pid runs with the recorded procStart, and says where', () => {
    const w = world([{ pid: 4242, start: '34191', tty: '/dev/pts/3', env: { TMUX: '/tmp/s,1,0', TMUX_PANE: '%7' } }]);
    record(w.home, 4242, { sessionId: ID, procStart: '34191' });
    const live = conversationLiveness('claude', w.home, ID, { proc: w.proc });
    expect(live).toMatchObject({ state: 'live', holder: { pid: 4242, tty: '/dev/pts/3', tmux: { socket: '/tmp/s', pane: '%7' } } });
    expect(live.source).toContain(join(w.home, 'sessions'));
    if (live.state === 'live') expect(describePlace(live.holder)).toBe('pid 4242 on /dev/pts/3 (tmux pane %7)');
  });

  it('is free when the recorded pid is dead (a record left by a killed claude)', () => {
    const w = world([]);
    record(w.home, 4242, { sessionId: ID, procStart: '34191' });
    expect(conversationLiveness('claude', w.home, ID, { proc: w.proc })).toMatchObject({ state: 'free' });
  });

  it('is free when the pid runs but started at another time (the pid was reused)', () => {
    const w = world([{ pid: 4242, start: '99999' }]);
    record(w.home, 4242, { sessionId: ID, procStart: '34191' });
    expect(conversationLiveness('claude', w.home, ID, { proc: w.proc })).toMatchObject({ state: 'free' });
  });

  it('is free when a zombie holds the pid', () => {
    const w = world([{ pid: 4242, start: '34191', state: 'Z' }]);
    record(w.home, 4242, { sessionId: ID, procStart: '34191' });
    expect(conversationLiveness('claude', w.home, ID, { proc: w.proc })).toMatchObject({ state: 'free' });
  });

  it('is free when the live records name other conversations', () => {
    const w = world([{ pid: 4242, start: '34191' }]);
    record(w.home, 4242, { sessionId: OTHER, procStart: '34191' });
    expect(conversationLiveness('claude', w.home, ID, { proc: w.proc })).toMatchObject({ state: 'free' });
  });

  it('is unknown, not free, where no proc tree can be read (macOS): no pid can be seen running', () => {
    const w = world([]);
    record(w.home, 4242, { sessionId: ID, procStart: '34191' });
    const live = conversationLiveness('claude', w.home, ID, { proc: join(w.dir, 'no-proc') });
    expect(live).toMatchObject({ state: 'unknown' });
    if (live.state === 'unknown') expect(live.why).toContain('cannot be read');
    // A registry that names the conversation nowhere is still free.
    expect(conversationLiveness('claude', w.home, OTHER, { proc: join(w.dir, 'no-proc') })).toMatchObject({ state: 'free' });
  });

  it('is unknown when a running record has no procStart to compare', () => {
    const w = world([{ pid: 4242, start: '34191' }]);
    record(w.home, 4242, { sessionId: ID });
    const live = conversationLiveness('claude', w.home, ID, { proc: w.proc });
    expect(live).toMatchObject({ state: 'unknown' });
    if (live.state === 'unknown') expect(live.why).toContain('start time cannot be compared');
  });
});

describe('claude: a registry fleetcom cannot trust is "unknown", never free or live', () => {
  const cases: Array<[string, (home: string) => void, string]> = [
    ['no registry directory', () => undefined, 'does not exist'],
    ['an old-format pid-<n>.json file', (home) => record(home, 4242, { sessionId: ID, procStart: '34191' }, 'pid-4242.json'), 'older or unknown registry format'],
    ['snake_case keys', (home) => {
      mkdirSync(join(home, 'sessions'), { recursive: true });
      writeFileSync(join(home, 'sessions', '4242.json'), JSON.stringify({ pid: 4242, session_id: ID, proc_start: '34191' }));
    }, 'snake_case'],
    ['torn JSON', (home) => {
      mkdirSync(join(home, 'sessions'), { recursive: true });
      writeFileSync(join(home, 'sessions', '4242.json'), '{"pid":4242,"sessionId":"c8c4');
    }, 'not JSON'],
    ['a record naming another pid than its file', (home) => record(home, 4243, { sessionId: ID, procStart: '34191' }, '4242.json'), 'names pid 4243'],
    ['a directory in place of a record', (home) => mkdirSync(join(home, 'sessions', '4242.json'), { recursive: true }), 'EISDIR'],
  ];
  for (const [title, craft, why] of cases) {
    it(`${title}`, () => {
      const w = world([{ pid: 4242, start: '34191' }]);
      craft(w.home);
      const live = conversationLiveness('claude', w.home, ID, { proc: w.proc });
      expect(live.state).toBe('unknown');
      if (live.state === 'unknown') expect(live.why).toContain(why);
    });
  }

  it('still reports live when one trustworthy record proves it, beside an unreadable one', () => {
    const w = world([{ pid: 4242, start: '34191' }]);
    record(w.home, 4242, { sessionId: ID, procStart: '34191' });
    record(w.home, 77, { sessionId: OTHER }, 'pid-77.json');
    expect(conversationLiveness('claude', w.home, ID, { proc: w.proc })).toMatchObject({ state: 'live' });
  });

  it('skips claude\'s own dot files in the registry directory', () => {
    const w = world([]);
    mkdirSync(join(w.home, 'sessions'), { recursive: true });
    writeFileSync(join(w.home, 'sessions', '.fleetview-heartbeat'), '');
    expect(readClaudeRegistry(w.home)).toMatchObject({ kind: 'read', records: [], problems: [] });
  });
});

describe('codex: a process holding the rollout open', () => {
  function rollout(home: string): string {
    const dir = join(home, 'sessions', '2026', '07', '12'); // the day of CID's v7 time
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `rollout-2026-07-12T03-16-50-${CID}.jsonl`);
    writeFileSync(file, '{"type":"session_meta"}\n');
    return file;
  }

  it('is live when a process has the rollout open', () => {
    const t = tempRoot();
    cleanup.push(t.done);
    const home = join(t.dir, 'codex-home');
    const file = rollout(home);
    const proc = fakeProc(t.dir, [{ pid: 10, start: '1', open: ['/dev/null'] }, { pid: 11, start: '2', comm: 'codex', tty: '/dev/pts/9', open: [file] }]);
    expect(conversationLiveness('codex', home, CID, { proc })).toMatchObject({ state: 'live', holder: { pid: 11, tty: '/dev/pts/9' } });
  });

  it('is free when no process has it open, and says when some could not be read', () => {
    const t = tempRoot();
    cleanup.push(t.done);
    const home = join(t.dir, 'codex-home');
    rollout(home);
    const proc = fakeProc(t.dir, [{ pid: 10, start: '1', open: ['/dev/null'] }, { pid: 12, start: '1', hiddenFds: true }]);
    const live = conversationLiveness('codex', home, CID, { proc });
    expect(live).toMatchObject({ state: 'free' });
    expect(live.source).toContain('1 process(es) of other users not readable');
  });

  it('scans open files once for every check sharing sharedOpenFiles (a load of many codex)', () => {
    const t = tempRoot();
    cleanup.push(t.done);
    const home = join(t.dir, 'codex-home');
    const file = rollout(home);
    const proc = fakeProc(t.dir, [{ pid: 10, start: '1' }]);
    const shared = sharedOpenFiles({ proc });
    expect(conversationLiveness('codex', home, CID, shared)).toMatchObject({ state: 'free' });
    fakeProc(t.dir, [{ pid: 11, start: '2', open: [file] }]); // opened after the scan
    expect(conversationLiveness('codex', home, CID, shared)).toMatchObject({ state: 'free' });
    expect(conversationLiveness('codex', home, CID, { proc })).toMatchObject({ state: 'live', holder: { pid: 11 } });
  });

  it('is unknown when the proc file system cannot be read', () => {
    const t = tempRoot();
    cleanup.push(t.done);
    const home = join(t.dir, 'codex-home');
    rollout(home);
    expect(conversationLiveness('codex', home, CID, { proc: join(t.dir, 'no-proc') })).toMatchObject({ state: 'unknown' });
  });
});

describe('grok', () => {
  it('is unknown: grok keeps no record of running sessions', () => {
    expect(conversationLiveness('grok', '/nowhere', ID)).toMatchObject({ state: 'unknown' });
  });
});

describe('the real /proc', () => {
  it('reads the start time claude records (field 22 of stat) for a running process', () => {
    const t = tempRoot();
    cleanup.push(t.done);
    const home = join(t.dir, 'claude-home');
    const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    const procStart = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    record(home, process.pid, { sessionId: ID, procStart });
    expect(conversationLiveness('claude', home, ID)).toMatchObject({ state: 'live', holder: { pid: process.pid } });
    record(home, process.pid, { sessionId: ID, procStart: `${procStart}0` });
    expect(conversationLiveness('claude', home, ID)).toMatchObject({ state: 'free' });
  });
});
