// The supervisor's own death check on real processes: a zombie (what a pane process is while
// tmux has missed its SIGCHLD), a zombie of a signal, a reaped process, a running one; a quiet
// pane's end seen through its terminal on a real tmux server; a pane that writes, polled.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { RETELL_AFTER_MS, watchProcesses, WRITES_BEFORE_POLLING, type Ending, type ProcessWatch } from '../../src/fleet/exits/process-watch.js';
import { watchTty, type TtyWatchEvents } from '../../src/fleet/exits/tty-watch.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

const parents: ChildProcess[] = [];
let watch: ProcessWatch | null = null;

afterEach(() => {
  watch?.stop();
  watch = null;
  for (const parent of parents.splice(0)) parent.kill('SIGKILL');
});

/**
 * A child of a process that never reaps it: it stays a zombie once `script` ends. Its pid.
 * The child runs `script` only once its parent shell has become `sleep` (a shell may reap a
 * child that ends before its exec).
 */
async function orphanedChild(script: string): Promise<number> {
  const child = `until [ "$(cat /proc/$PPID/comm)" = sleep ]; do sleep 0.01; done; ${script}`;
  const parent = spawn('sh', ['-c', `sh -c '${child}' & echo $!; exec sleep 1000`], { stdio: ['ignore', 'pipe', 'inherit'] });
  parents.push(parent);
  let out = '';
  parent.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return Number(await waitFor(() => /^\d+\n/.exec(out)?.[0], { what: 'the child pid' }));
}

const state = (pid: number): string | null => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
};

/** Starts a watch of `pids` (changed in place by the test); the endings it tells, with when. */
function watching(pids: Map<number, number>): Array<[number, Ending, number]> {
  const ended: Array<[number, Ending, number]> = [];
  // No terminal to watch: every process is polled.
  watch = watchProcesses(() => new Map([...pids].map(([key, pid]) => [key, { pid, tty: null }])), (key, ending) => ended.push([key, ending, Date.now()]));
  return ended;
}

const endings = (told: Array<[number, Ending, number]>) => told.map(([key, ending]) => [key, ending]);

describe('the process watch', () => {
  it('tells a zombie with its exit status, and again only after a while if it is still named', async () => {
    const pid = await orphanedChild('exit 7');
    await waitFor(() => state(pid) === 'Z', { what: `pid ${pid} to be a zombie` });
    const told = watching(new Map([[3, pid]]));
    await waitFor(() => told.length >= 2, { what: 'the ending told twice' });
    expect(endings(told).slice(0, 2)).toEqual([[3, { kind: 'zombie', exitStatus: 7 }], [3, { kind: 'zombie', exitStatus: 7 }]]);
    // The watch times the wait from its own tick, a moment before it tells (seen: 499 ms): the
    // slack only absorbs that, far below the 100 ms poll a missing wait would show.
    expect((told[1]?.[2] ?? 0) - (told[0]?.[2] ?? 0)).toBeGreaterThanOrEqual(RETELL_AFTER_MS - 20);
  });

  it('tells a zombie killed by a signal without an exit status', async () => {
    const pid = await orphanedChild('kill -KILL $$');
    await waitFor(() => state(pid) === 'Z', { what: `pid ${pid} to be a zombie` });
    const told = watching(new Map([[5, pid]]));
    await waitFor(() => told.length > 0, { what: 'the ending' });
    expect(endings(told)[0]).toEqual([5, { kind: 'zombie', exitStatus: null }]);
  });

  it('sees a running process end', async () => {
    const child = spawn('sh', ['-c', 'read line; exit 4'], { stdio: ['pipe', 'ignore', 'ignore'] });
    parents.push(child);
    const pid = child.pid as number;
    const pids = new Map([[1, pid]]);
    const told = watching(pids);
    await waitFor(() => state(pid) === 'S', { what: 'the child to wait' });
    expect(told).toEqual([]);
    child.stdin?.end('go\n');
    await waitFor(() => told.length > 0, { what: 'the ending' });
    pids.clear();
    // node reaps its children at once: the watch sees it as a zombie or already gone.
    expect([[1, { kind: 'zombie', exitStatus: 4 }], [1, { kind: 'gone' }]]).toContainEqual(endings(told)[0]);
  });

  it('tells a pid that is already gone, and only what it is still asked about', async () => {
    const child = spawn('true');
    const gone = child.pid as number;
    await new Promise((resolve) => child.on('exit', resolve));
    await waitFor(() => state(gone) === null, { what: 'the child to be reaped' });
    const pids = new Map([[1, gone]]);
    const told = watching(pids);
    await waitFor(() => told.length > 0, { what: 'the ending' });
    expect(endings(told)[0]).toEqual([1, { kind: 'gone' }]);
    pids.clear();
    const zombie = await orphanedChild('exit 0');
    await waitFor(() => state(zombie) === 'Z', { what: 'the orphan to be a zombie' });
    pids.set(9, zombie);
    watch?.refresh(); // nothing is polled any more: the targets are read when told to
    await waitFor(() => told.some(([key]) => key === 9), { what: 'the key asked about' });
    expect(told.filter(([key]) => key !== 1 && key !== 9)).toEqual([]);
    expect(told.find(([key]) => key === 9)?.[1]).toEqual({ kind: 'zombie', exitStatus: 0 });
  });
});

describe('the process watch of a pane’s terminal', () => {
  it('sees a quiet pane’s process end through its terminal, with nothing polled', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const w = await sb.ops.newWindow({ session, name: 't', cwd: sb.dir, argv: ['sh', '-c', 'read x; exit 3'], windowOptions: { 'remain-on-exit': 'on' } });
    const [pid, tty] = (await sb.tmux('display-message', '-p', '-t', w.paneId, '#{pane_pid} #{pane_tty}')).trim().split(' ');
    const told: Array<[number, Ending]> = [];
    // A poll once an hour: only the terminal's own event can tell within the test.
    watch = watchProcesses(() => new Map([[1, { pid: Number(pid), tty: tty ?? null }]]), (key, ending) => told.push([key, ending]), { everyMs: 3_600_000 });
    expect(watch.checkNow()).toBe(0);
    await sb.tmux('send-keys', '-t', w.paneId, 'go', 'Enter');
    await waitFor(() => told.length > 0, { what: 'the ending' });
    expect([[1, { kind: 'zombie', exitStatus: 3 }], [1, { kind: 'gone' }]]).toContainEqual(told[0]);
    expect((await sb.tmux('display-message', '-p', '-t', w.paneId, '#{pane_dead}')).trim()).toBe('1');
  });
});

describe('the process watch of a pane that writes', () => {
  /** A fake terminal watch: how often it was armed, and the events of the last one. */
  function fakeTerminal() {
    const armed: TtyWatchEvents[] = [];
    let open = 0;
    const watchTerminal = (_tty: string, events: TtyWatchEvents) => {
      armed.push(events);
      open += 1;
      return { close: () => (open -= 1) };
    };
    return { armed, open: () => open, watchTerminal };
  }

  function waitingChild(): ChildProcess {
    const child = spawn('sh', ['-c', 'read line; exit 4'], { stdio: ['pipe', 'ignore', 'ignore'] });
    parents.push(child);
    return child;
  }

  it('keeps watching a terminal through a few writes, polls it through many, then watches it again', async () => {
    const fake = fakeTerminal();
    const child = waitingChild();
    const told: Ending[] = [];
    watch = watchProcesses(() => new Map([[1, { pid: child.pid as number, tty: '/dev/pts/0' }]]), (_key, ending) => told.push(ending), { everyMs: 20, watchTerminal: fake.watchTerminal });
    expect([fake.armed.length, fake.open()]).toEqual([1, 1]);
    const writes = (n: number) => Array.from({ length: n }, () => fake.armed.at(-1)?.written());
    writes(WRITES_BEFORE_POLLING - 1); // an exit hint's few writes
    expect(fake.open()).toBe(1);
    writes(1);
    expect(fake.open()).toBe(0);
    await waitFor(() => fake.armed.length === 2, { what: 'the terminal watched again', timeout: 20_000 });
    writes(WRITES_BEFORE_POLLING);
    child.stdin?.end('go\n');
    await waitFor(() => told.length > 0, { what: 'the ending seen by the poll' });
    expect([{ kind: 'zombie', exitStatus: 4 }, { kind: 'gone' }]).toContainEqual(told[0]);
    expect(fake.open()).toBe(0);
  });

  it('tells a terminal closed under a process that lives on, and watches nothing without a terminal', async () => {
    const fake = fakeTerminal();
    const child = waitingChild();
    const told: Array<[number, Ending]> = [];
    const targets = new Map([[1, { pid: child.pid as number, tty: '/dev/pts/0' }], [2, { pid: child.pid as number, tty: null }]]);
    watch = watchProcesses(() => targets, (key, ending) => told.push([key, ending]), { everyMs: 20, watchTerminal: fake.watchTerminal });
    expect(fake.armed.length).toBe(1);
    fake.armed[0]?.closed();
    expect(told).toEqual([[1, { kind: 'closed' }]]);
  });
});

describe('the process watch of an adopted agent under its shell', () => {
  const startOf = (pid: number) => {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  };

  it('polls the agent, since the terminal its shell keeps open says nothing of its end', async () => {
    const armed: TtyWatchEvents[] = [];
    const watchTerminal = (_tty: string, events: TtyWatchEvents) => (armed.push(events), { close: () => undefined });
    const child = spawn('sh', ['-c', 'read line; exit 4'], { stdio: ['pipe', 'ignore', 'ignore'] });
    parents.push(child);
    const pid = child.pid as number;
    await waitFor(() => state(pid) === 'S', { what: 'the child to wait' });
    const told: Ending[] = [];
    const target = { pid, tty: '/dev/pts/0', start: startOf(pid), outlivedByTty: true };
    watch = watchProcesses(() => new Map([[1, target]]), (_key, ending) => told.push(ending), { everyMs: 3_600_000, followEveryMs: 20, watchTerminal });
    expect(armed).toEqual([]);
    child.stdin?.end('go\n');
    await waitFor(() => told.length > 0, { what: 'the ending seen by the poll' });
    expect([{ kind: 'zombie', exitStatus: 4 }, { kind: 'gone' }]).toContainEqual(told[0]);
  });

  it('calls a pid gone when the process holding it now started at another tick', async () => {
    const child = spawn('sleep', ['600']);
    parents.push(child);
    const pid = child.pid as number;
    await waitFor(() => state(pid) === 'S', { what: 'sleep to run' });
    const told: Ending[] = [];
    watch = watchProcesses(() => new Map([[1, { pid, tty: null, start: '1' }]]), (_key, ending) => told.push(ending), { everyMs: 3_600_000 });
    expect(told).toEqual([{ kind: 'gone' }]);
  });
});

describe('watchTty', () => {
  it('refuses what is not a pts path, and calls a pts that is gone closed', async () => {
    const events = { written: () => undefined, closed: () => undefined };
    expect(watchTty('/etc/passwd', events)).toBeNull();
    expect(watchTty('/dev/pts/../../etc/passwd', events)).toBeNull();
    let closed = false;
    const gone = watchTty('/dev/pts/987654', { written: () => undefined, closed: () => (closed = true) });
    expect(gone).not.toBeNull();
    await waitFor(() => closed, { what: 'closed' });
  });
});
