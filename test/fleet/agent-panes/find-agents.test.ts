import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findPaneAgents, type FleetView, type PaneAgent } from '../../../src/fleet/agent-panes/find-agents.js';
import type { PanePlace } from '../../../src/tmux/pane-places.js';
import { fakeProc, tempRoot, type FakeProcess } from '../../ownership/proc-tree.js';

// Which panes of the server run an agent someone started by hand, and which of them may become
// tasks: a crafted /proc (pids, parents, sessions, argv, environment, open files) and the
// panes as tmux lists them.

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const CID = '019f5453-de22-7240-b2e5-0d32692aa6d9';
const TMUX = '/tmp/tmux-0/default';
const UID = 1000;

let t: { dir: string; done: () => void };
let home: string;
beforeEach(() => {
  t = tempRoot();
  home = join(t.dir, 'home');
});
afterEach(() => t.done());

function place(paneId: string, panePid: number, fields: Partial<PanePlace> = {}): PanePlace {
  return {
    paneId, windowId: `@${paneId.slice(1)}`, windowPanes: 1, sessionId: '$1', sessionName: 'work', panePid, paneTty: null, paneDead: false,
    task: null, socket: null, ...fields,
  };
}

const env = (pane: string, extra: Record<string, string> = {}) => ({
  HOME: home, PATH: '/usr/local/bin:/usr/bin', TMUX: `${TMUX},99,0`, TMUX_PANE: pane, ...extra,
});

function agent(pid: number, ppid: number, argv: string[], pane: string, extra: Partial<FakeProcess> = {}): FakeProcess {
  return { pid, ppid, start: String(pid * 10), argv, comm: argv[0], cwd: '/w', uid: UID, env: env(pane), ...extra };
}

const shell = (pid: number, pane: string): FakeProcess => ({ pid, start: String(pid * 10), argv: ['bash'], comm: 'bash', cwd: '/w', uid: UID, env: env(pane) });

function registry(pid: number, sessionId: string): void {
  mkdirSync(join(home, '.claude', 'sessions'), { recursive: true });
  writeFileSync(join(home, '.claude', 'sessions', `${pid}.json`), JSON.stringify({ pid, sessionId, procStart: String(pid * 10), cwd: '/w', status: 'idle' }));
}

function rollout(id: string): string {
  const dir = join(home, '.codex', 'sessions', '2026', '07', '12');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `rollout-2026-07-12T10-00-00-${id}.jsonl`);
  writeFileSync(file, `${JSON.stringify({ type: 'session_meta', payload: { id, cwd: '/w', thread_source: 'user' } })}\n`);
  return file;
}

const fleet = (fields: Partial<FleetView> = {}): FleetView => ({ controlSocket: '/run/fleet.sock', tmuxSocket: TMUX, uid: UID, conversations: new Map(), ...fields });

function find(processes: FakeProcess[], places: PanePlace[], view = fleet(), childrenFiles = true): Map<string, PaneAgent> {
  const found = findPaneAgents(places, view, fakeProc(t.dir, processes, { childrenFiles }));
  return new Map(found.map((a) => [a.place.paneId, a]));
}

describe('findPaneAgents', () => {
  it('finds a claude under a shell, named by its own registry record', () => {
    registry(101, ID);
    const found = find([shell(100, '%1'), agent(101, 100, ['claude'], '%1')], [place('%1', 100)]);
    expect(found.get('%1')).toMatchObject({
      agent: 'claude', program: 'claude', pid: 101, underShell: true, home: join(home, '.claude'), refused: null,
      conversation: { kind: 'id', id: ID }, attention: { attention: 'waiting' },
    });
  });

  it('finds an agent that is the pane\'s own process', () => {
    const found = find([agent(100, 1, ['claude'], '%1')], [place('%1', 100)]);
    expect(found.get('%1')).toMatchObject({ agent: 'claude', pid: 100, underShell: false, refused: null, conversation: { kind: 'none' } });
  });

  it('takes codex\'s node launcher as the agent and reads the rollout its native child holds, never the daemon\'s', () => {
    const own = rollout(CID);
    const theirs = rollout('019f5453-de22-7240-b2e5-0d32692aa6da');
    const found = find([
      shell(100, '%1'),
      agent(101, 100, ['node', '/usr/local/bin/codex'], '%1', { sid: 100 }),
      agent(102, 101, ['/x/vendor/codex'], '%1', { sid: 100, open: [own] }),
      agent(103, 102, ['/x/vendor/codex', 'app-server', '--listen', 'unix://'], '%1', { sid: 103, open: [theirs] }),
    ], [place('%1', 100)]);
    expect(found.get('%1')).toMatchObject({ agent: 'codex', program: 'codex', pid: 101, conversation: { kind: 'id', id: CID } });
  });

  it('reads the same tree where the kernel has no children files (every stat read instead)', () => {
    const own = rollout(CID);
    const processes = [
      shell(100, '%1'),
      agent(101, 100, ['node', '/usr/local/bin/codex'], '%1', { sid: 100 }),
      agent(102, 101, ['/x/vendor/codex'], '%1', { sid: 100, open: [own] }),
    ];
    expect(find(processes, [place('%1', 100)], fleet(), false).get('%1')).toMatchObject({ pid: 101, conversation: { kind: 'id', id: CID } });
  });

  it('follows the outer agent when claude runs another one', () => {
    registry(100, ID);
    const found = find([agent(100, 1, ['claude'], '%1'), agent(101, 100, ['codex'], '%1')], [place('%1', 100)]);
    expect(found.get('%1')).toMatchObject({ agent: 'claude', pid: 100, refused: null });
  });

  it('leaves out panes without an agent, dead panes and this fleet\'s tasks', () => {
    const found = find([shell(100, '%1'), agent(200, 1, ['claude'], '%2'), agent(300, 1, ['claude'], '%3')], [
      place('%1', 100), place('%2', 200, { paneDead: true }), place('%3', 300, { task: '4', socket: '/run/fleet.sock' }),
    ]);
    expect([...found.keys()]).toEqual([]);
  });

  it.each([
    ['another user\'s agent', () => [shell(100, '%1'), agent(101, 100, ['claude'], '%1', { uid: 0 })], {}, /runs as user 0, not as you/],
    ['an agent whose environment cannot be read', () => [shell(100, '%1'), agent(101, 100, ['claude'], '%1', { hiddenEnv: true })], {}, /traces cannot be read: .*environ/],
    ['a claude whose registry record is torn', () => [shell(100, '%1'), agent(101, 100, ['claude'], '%1')], {}, /traces cannot be read: its registry record/],
    ['a codex whose open files cannot be listed', () => [shell(100, '%1'), agent(101, 100, ['codex'], '%1', { hiddenFds: true })], {}, /traces cannot be read: its open files/],
    ['an agent of another tmux server', () => [agent(100, 1, ['claude'], '%1', { env: env('%7', { TMUX: '/tmp/tmux-0/other,5,0' }) })], {}, /pane %7 of another tmux server \(\/tmp\/tmux-0\/other\)/],
    ['two agents in one pane', () => [shell(100, '%1'), agent(101, 100, ['claude'], '%1'), agent(102, 100, ['codex'], '%1')], {}, /runs 2 agents \(claude pid 101, codex pid 102\)/],
    ['another fleet\'s task', () => [agent(100, 1, ['claude'], '%1')], { task: '2', socket: '/run/other.sock' }, /task 2 of another fleet/],
  ] as const)('refuses %s', (label, processes, fields, why) => {
    if (label.includes('torn')) {
      mkdirSync(join(home, '.claude', 'sessions'), { recursive: true });
      writeFileSync(join(home, '.claude', 'sessions', '101.json'), '{"pid":101,"sess');
    }
    const found = find(processes(), [place('%1', 100, fields)]);
    expect(found.get('%1')?.refused).toMatch(why);
  });

  it('refuses a conversation that is already a task of this fleet', () => {
    registry(100, ID);
    const found = find([agent(100, 1, ['claude'], '%1')], [place('%1', 100)], fleet({ conversations: new Map([[ID, 4]]) }));
    expect(found.get('%1')?.refused).toBe(`its conversation ${ID} is already task 4 of this fleet`);
  });
});
