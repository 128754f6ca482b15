import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAUDE_SETTINGS, CODEX_NOTIFY_SCRIPT } from '../../src/capture/assets.js';
import { capturePath } from '../../src/capture/capture-names.js';
import {
  watchCaptures,
  type CaptureEvent,
  type CaptureWatcher,
  type CheckReason,
  type RunLookup,
  type WatchCapturesOptions,
} from '../../src/capture/watcher.js';
import { claudeSlug, isValidId, utcDateFolders, type HarnessName, type RunEvidence } from '../../src/harness/index.js';
import { waitFor } from '../helpers/wait-for.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const OTHER = '11111111-2222-4333-8444-555555555555';
const CID = '019f5453-de22-7240-b2e5-0d32692aa6d9';
const TITLE_THREAD = '019f5453-de22-7240-b2e5-0d32692aa6da';

/** The n-th of a series of distinct valid ids. */
const nthId = (n: number): string => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
const hookPayload = (id: string): string => JSON.stringify({ session_id: id, cwd: '/w', hook_event_name: 'SessionStart', source: 'startup' });

/** A stand-in for the resume core's captureId: the claude hook payload's session_id, checked. */
const sessionIdResolver = (evidence: RunEvidence): string | null => {
  try {
    const value = JSON.parse(readFileSync(evidence.captureFile ?? '', 'utf8')) as { session_id?: unknown };
    return typeof value.session_id === 'string' && isValidId(value.session_id) ? value.session_id : null;
  } catch {
    return null;
  }
};

/** A fleet whose tasks have a current run; each run's capture file lives in `dir`. */
class FakeFleet implements RunLookup {
  readonly runs = new Map<number, { run: number; harness: HarnessName; captureFile?: string }>();
  constructor(
    private readonly dir: string,
    private readonly home: string,
    private readonly cwd: string,
  ) {}
  set(taskId: number, run: number, harness: HarnessName = 'claude', captureFile?: string): this {
    this.runs.set(taskId, { run, harness, ...(captureFile === undefined ? {} : { captureFile }) });
    return this;
  }
  current(taskId: number): { run: number; evidence: RunEvidence } | null {
    const task = this.runs.get(taskId);
    if (!task) return null;
    const evidence: RunEvidence = {
      harness: task.harness,
      cwd: this.cwd,
      home: this.home,
      captureFile: task.captureFile ?? capturePath(this.dir, taskId, task.run),
      exitHint: null,
      pinnedId: null,
      spawnedAt: Date.now() - 1000,
      endedAt: null,
    };
    return { run: task.run, evidence };
  }
}

let tmp: string;
let dir: string;
let fleet: FakeFleet;
let watchers: CaptureWatcher[];
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fleetcom-watch-'));
  dir = join(tmp, '1234-abcdefabcdef');
  mkdirSync(dir, { mode: 0o700 });
  mkdirSync(join(tmp, 'home'));
  fleet = new FakeFleet(dir, join(tmp, 'home'), '/w/proj');
  watchers = [];
});
afterEach(async () => {
  await Promise.all(watchers.map((w) => w.close()));
  rmSync(tmp, { recursive: true, force: true });
});

type Check = { taskId: number; run: number; id: string | null; reason: CheckReason };

async function start(options: Partial<WatchCapturesOptions> = {}) {
  const events: CaptureEvent[] = [];
  const checks: Check[] = [];
  const errors: unknown[] = [];
  const watcher = await watchCaptures({
    dir,
    lookup: fleet,
    onId: (event) => events.push(event),
    resolve: sessionIdResolver,
    onCheck: (check) => checks.push(check),
    onError: (error) => errors.push(error),
    ...options,
  });
  watchers.push(watcher);
  /** Wait until the backstop check after the latest write to the task's file saw `id`. */
  const settled = (taskId: number, id: string | null, since: number) =>
    waitFor(() => checks.slice(since).some((c) => c.reason === 'settle' && c.taskId === taskId && c.id === id), {
      what: `a settled check of task ${taskId} seeing ${id}`,
    });
  return { events, checks, errors, watcher, settled };
}

const write = (taskId: number, run: number, text: string): void => writeFileSync(capturePath(dir, taskId, run), text);

describe('watchCaptures', () => {
  it('emits a write once, with the run that is current', async () => {
    fleet.set(1, 2);
    const { events, checks, settled } = await start();
    write(1, 2, hookPayload(ID));
    await waitFor(() => events.length > 0, { what: 'the first event' });
    await settled(1, ID, 0);
    expect(events).toEqual([{ taskId: 1, run: 2, id: ID }]);
    const mark = checks.length;
    write(1, 2, hookPayload(ID)); // the same answer again: nothing new
    await settled(1, ID, mark);
    expect(events).toEqual([{ taskId: 1, run: 2, id: ID }]);
  });

  it('ignores older runs, unknown tasks, other namespaces and foreign files', async () => {
    fleet.set(1, 2).set(2, 1, 'claude', join(tmp, 'elsewhere', 'task-2-1.json'));
    const { events, settled } = await start();
    write(1, 1, hookPayload(OTHER)); // the displaced run
    write(9, 1, hookPayload(OTHER)); // a task the fleet does not know
    write(2, 1, hookPayload(OTHER)); // task 2's run writes into another namespace
    writeFileSync(join(dir, 'task-1-2.json.77.tmp'), hookPayload(OTHER));
    writeFileSync(join(dir, 'notes.json'), hookPayload(OTHER));
    write(1, 2, hookPayload(ID));
    await settled(1, ID, 0);
    expect(events).toEqual([{ taskId: 1, run: 2, id: ID }]);
  });

  it('ignores torn writes, garbage and invalid ids, and picks up a later valid write', async () => {
    fleet.set(3, 1);
    const { events, checks, settled } = await start();
    const bad = [
      '',
      '{"session_id":"c8c4a5cc-0b32',
      'garbage',
      hookPayload(ID.toUpperCase()),
      hookPayload(`${ID}'; rm -rf ~; '`),
      '{"session_id":42}',
    ];
    for (const text of bad) {
      const mark = checks.length;
      write(3, 1, text);
      await settled(3, null, mark);
    }
    expect(events).toEqual([]);
    write(3, 1, hookPayload(ID));
    await waitFor(() => events.length === 1, { what: 'the valid id' });
    let mark = checks.length;
    write(3, 1, 'garbage again');
    await settled(3, null, mark);
    mark = checks.length;
    write(3, 1, hookPayload(OTHER));
    await settled(3, OTHER, mark);
    expect(events).toEqual([
      { taskId: 3, run: 1, id: ID },
      { taskId: 3, run: 1, id: OTHER },
    ]);
  });

  it('drops an answer that is not a valid id even if the resolver gives one', async () => {
    fleet.set(1, 1);
    const { events, settled } = await start({ resolve: () => ID.toUpperCase() });
    write(1, 1, hookPayload(ID));
    await settled(1, null, 0);
    expect(events).toEqual([]);
  });

  it("checks an answer with the task's own agent's id check (opencode's ses_ ids)", async () => {
    const SID = 'ses_dcd254f97ffeRjctlW5tG6xzJ7';
    fleet.set(1, 1, 'opencode');
    fleet.set(2, 1, 'claude');
    const { events, settled } = await start({ resolve: () => SID });
    write(1, 1, hookPayload(ID));
    await settled(1, SID, 0);
    write(2, 1, hookPayload(ID));
    await settled(2, null, 0);
    expect(events).toEqual([{ taskId: 1, run: 1, id: SID }]);
  });

  it('ends rapid successive writes with the last id', async () => {
    fleet.set(1, 1);
    const { events, settled } = await start();
    const written = Array.from({ length: 50 }, (_, i) => nthId(i + 1));
    for (const id of written) write(1, 1, hookPayload(id));
    await settled(1, written.at(-1) ?? null, 0);
    expect(events.at(-1)).toEqual({ taskId: 1, run: 1, id: written.at(-1) });
    for (const [i, event] of events.entries()) {
      expect(written).toContain(event.id);
      if (i > 0) expect(event.id).not.toBe(events[i - 1]?.id);
    }
  });

  it("sees a file truncated and then written in pieces (the hook's `cat >`)", async () => {
    fleet.set(1, 1);
    const { events, settled } = await start();
    write(1, 1, hookPayload(OTHER));
    await waitFor(() => events.length === 1, { what: 'the first id' });
    const text = hookPayload(ID);
    const fd = openSync(capturePath(dir, 1, 1), 'w');
    writeSync(fd, text.slice(0, 10));
    writeSync(fd, text.slice(10));
    closeSync(fd);
    await waitFor(() => events.length === 2, { what: 'the rewritten id' });
    await settled(1, ID, 0);
    expect(events.map((e) => e.id)).toEqual([OTHER, ID]);
  });

  it('sees a file created and replaced by rename (atomic writes)', async () => {
    fleet.set(4, 1);
    const { events } = await start();
    const temp = join(dir, '.task-4-1.json.tmp');
    writeFileSync(temp, hookPayload(ID));
    renameSync(temp, capturePath(dir, 4, 1));
    await waitFor(() => events.length === 1, { what: 'the renamed-in file' });
    writeFileSync(temp, hookPayload(OTHER));
    renameSync(temp, capturePath(dir, 4, 1));
    await waitFor(() => events.length === 2, { what: 'the file replaced by rename' });
    expect(events).toEqual([
      { taskId: 4, run: 1, id: ID },
      { taskId: 4, run: 1, id: OTHER },
    ]);
  });

  it('emits the same id again for a new run (a rerun resuming the conversation)', async () => {
    fleet.set(1, 1);
    const { events } = await start();
    write(1, 1, hookPayload(ID));
    await waitFor(() => events.length === 1, { what: 'run 1' });
    fleet.set(1, 2);
    write(1, 2, hookPayload(ID));
    await waitFor(() => events.length === 2, { what: 'run 2' });
    expect(events).toEqual([
      { taskId: 1, run: 1, id: ID },
      { taskId: 1, run: 2, id: ID },
    ]);
  });

  it('rechecks a task on demand (after a rerun), emitting only a changed answer', async () => {
    fleet.set(1, 1);
    const { events } = await start();
    write(1, 2, hookPayload(OTHER)); // written before the supervisor moved to run 2
    write(1, 1, hookPayload(ID));
    await waitFor(() => events.length === 1, { what: 'run 1' });
    fleet.set(1, 2);
    const { recheck } = watchers[0] as CaptureWatcher;
    recheck(1);
    expect(events).toEqual([
      { taskId: 1, run: 1, id: ID },
      { taskId: 1, run: 2, id: OTHER },
    ]);
    recheck(1);
    recheck(99);
    expect(events).toHaveLength(2);
  });

  it('checks capture files already there when it starts (adopted tasks)', async () => {
    fleet.set(5, 3);
    write(5, 3, hookPayload(ID));
    const { events } = await start();
    await waitFor(() => events.length === 1, { what: 'the existing file' });
    expect(events).toEqual([{ taskId: 5, run: 3, id: ID }]);
  });

  it('never throws: failing lookups, resolvers and listeners are reported and watching goes on', async () => {
    fleet.set(1, 1);
    let resolverFails = true;
    const lookup: RunLookup = {
      current: (taskId) => {
        if (taskId === 2) throw new Error('lookup broke');
        return fleet.current(taskId);
      },
    };
    const { events, errors } = await start({
      lookup,
      resolve: (evidence) => {
        if (resolverFails) throw new Error('resolver broke');
        return sessionIdResolver(evidence);
      },
      onId: (event) => {
        events.push(event);
        throw new Error('listener broke');
      },
    });
    const reported = (message: string) => () => errors.some((e) => (e as Error).message === message);
    write(2, 1, hookPayload(ID));
    await waitFor(reported('lookup broke'), { what: 'the lookup failure reported' });
    write(1, 1, hookPayload(ID));
    await waitFor(reported('resolver broke'), { what: 'the resolver failure reported' });
    expect(events).toEqual([]);
    resolverFails = false;
    write(1, 1, hookPayload(ID));
    await waitFor(() => events.length === 1, { what: 'an id despite the failures' });
    await waitFor(reported('listener broke'), { what: 'the listener failure reported' });
    expect(events).toEqual([{ taskId: 1, run: 1, id: ID }]);
  });

  it('stops on close', async () => {
    fleet.set(1, 1);
    const { events, watcher, checks } = await start();
    await watcher.close();
    write(1, 1, hookPayload(ID));
    watcher.recheck(1);
    expect(events).toEqual([]);
    expect(checks).toEqual([]);
  });

  it('refuses a directory that does not exist', async () => {
    await expect(watchCaptures({ dir: join(tmp, 'missing'), lookup: fleet, onId: () => {} })).rejects.toThrow();
  });
});

describe('watchCaptures with the resume core resolver', () => {
  const env = (file: string) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', FLEETCOM_CAPTURE_FILE: file, FLEETCOM_NOTIFY_CHAIN: '' });

  it('emits a claude id only once its transcript holds a user record (8.2)', async () => {
    const home = join(tmp, 'home');
    const transcripts = join(home, 'projects', claudeSlug('/w/proj'));
    mkdirSync(transcripts, { recursive: true });
    writeFileSync(join(transcripts, `${OTHER}.jsonl`), '{"type":"mode"}\n{"type":"permission-mode"}\n');
    writeFileSync(join(transcripts, `${ID}.jsonl`), '{"type":"user","message":"hi"}\n');
    fleet.set(1, 1, 'claude');
    const { events, checks, settled } = await start({ resolve: undefined });
    const command = (JSON.parse(CLAUDE_SETTINGS) as { hooks: { SessionStart: Array<{ hooks: Array<{ command: string }> }> } })
      .hooks.SessionStart[0]?.hooks[0]?.command ?? '';
    const hook = (id: string) =>
      spawnSync('/bin/sh', ['-c', command], { input: hookPayload(id), env: env(capturePath(dir, 1, 1)) });
    hook(OTHER); // /exit with no message: no user record, not resumable
    await settled(1, null, 0);
    expect(events).toEqual([]);
    const mark = checks.length;
    hook(ID);
    await settled(1, ID, mark);
    expect(events).toEqual([{ taskId: 1, run: 1, id: ID }]);
  });

  it("emits a claude id captured before its first message once the run's events file changes (a /clear, then a prompt)", async () => {
    const home = join(tmp, 'home');
    const transcripts = join(home, 'projects', claudeSlug('/w/proj'));
    mkdirSync(transcripts, { recursive: true });
    fleet.set(1, 1, 'claude');
    const { events, checks, settled } = await start({ resolve: undefined });
    write(1, 1, hookPayload(ID)); // the new conversation's id, before anything was typed in it
    await settled(1, null, 0);
    const mark = checks.length;
    writeFileSync(join(transcripts, `${ID}.jsonl`), '{"type":"user","message":"hi"}\n');
    writeFileSync(join(dir, 'task-1-1.events'), '{"hook_event_name":"UserPromptSubmit"}\n');
    await settled(1, ID, mark);
    expect(events).toEqual([{ taskId: 1, run: 1, id: ID }]);
  });

  it('never emits the codex title-generation thread, in either order (8.3)', async () => {
    const home = join(tmp, 'home');
    const [today] = utcDateFolders(Date.now(), Date.now(), 0, 0);
    const day = join(home, 'sessions', ...(today ?? '').split('/'));
    mkdirSync(day, { recursive: true });
    writeFileSync(join(day, `rollout-2026-01-01T00-00-00-${CID}.jsonl`), '{"type":"session_meta","payload":{"cwd":"/w/proj"}}\n');
    const script = join(tmp, 'codex-notify.sh');
    writeFileSync(script, CODEX_NOTIFY_SCRIPT, { mode: 0o700 });
    const payload = (thread: string, input: string) =>
      JSON.stringify({ type: 'agent-turn-complete', 'thread-id': thread, 'turn-id': '1', 'input-messages': [input] });
    const turn = payload(CID, 'fix the tests');
    const title = payload(TITLE_THREAD, 'Generate a concise, single-line task title');
    fleet.set(1, 1, 'codex').set(2, 1, 'codex');
    const { events, checks, settled } = await start({ resolve: undefined });
    const notify = (taskId: number, json: string) => spawnSync(script, [json], { env: env(capturePath(dir, taskId, 1)) });

    notify(1, title); // title first: no rollout, nothing to emit
    await settled(1, null, 0);
    notify(1, turn);
    await settled(1, CID, 0);
    let mark = checks.length;
    notify(2, turn); // turn first, then title: the title line is last but has no rollout
    notify(2, title);
    await settled(2, CID, mark);
    mark = checks.length;
    notify(1, title); // a later title line changes nothing
    await settled(1, CID, mark);
    expect(events).toEqual([
      { taskId: 1, run: 1, id: CID },
      { taskId: 2, run: 1, id: CID },
    ]);
    expect(events.some((e) => e.id === TITLE_THREAD)).toBe(false);
  });
});
