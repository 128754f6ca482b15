import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { observeParkedJobs, parkedRerunCommand } from '../../../src/fleet/rerun/parked-jobs.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { claudeSlug } from '../../../src/harness/index.js';
import { ID, OTHER, tempDir } from '../../harness/fixtures.js';

// The registry and /proc as claude-code 2.1.332 leaves them after `←` (measured; see
// clients/README.md), crafted in a temp dir: the pane's claude (pid 100, child of the pane's
// shell 50) names its parked job; the job's worker (pid 200) holds the fork.

const JOB = 'ca7b8c43';
const PANE_PID = 50;

function world() {
  const home = tempDir();
  const proc = tempDir();
  const cwd = '/w';
  const register = (pid: number, record: Record<string, unknown>) => {
    mkdirSync(join(home, 'sessions'), { recursive: true });
    writeFileSync(join(home, 'sessions', `${pid}.json`), JSON.stringify({ pid, procStart: '1', ...record }));
  };
  const run = (pid: number, ppid: number) => {
    mkdirSync(join(proc, String(pid)), { recursive: true });
    writeFileSync(join(proc, String(pid), 'stat'), `${pid} (claude) S ${ppid} ${'0 '.repeat(17)}1 0\n`);
  };
  run(100, PANE_PID);
  run(200, 1);
  register(100, { sessionId: ID, kind: 'interactive', parkedJobId: JOB });
  register(200, { sessionId: OTHER, kind: 'bg', jobId: JOB });
  const task = {
    id: 1, run: 0, cwd, command: 'claude', harness: 'claude', home, endedAt: null, parkedJob: null,
  } as unknown as Task;
  const transcript = (id: string) => {
    const dir = join(home, 'projects', claudeSlug(cwd));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.jsonl`), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`);
  };
  return { home, proc, task, run, register, transcript };
}

describe('parked jobs', () => {
  it("reads the job from the pane's own claude, then follows its worker until it ends", () => {
    const w = world();
    expect(observeParkedJobs([{ task: w.task, panePid: PANE_PID }], w.proc)).toBe(true);
    expect(w.task.parkedJob).toMatchObject({ id: JOB, sessionId: OTHER, alive: true });
    expect(parkedRerunCommand(w.task)).toBe(`claude attach ${JOB}`);

    rmSync(join(w.home, 'sessions', '200.json'));
    expect(observeParkedJobs([{ task: w.task, panePid: PANE_PID }], w.proc)).toBe(true);
    expect(w.task.parkedJob).toMatchObject({ id: JOB, sessionId: OTHER, alive: false });
    expect(parkedRerunCommand(w.task), 'no conversation in either: the usual rerun').toBeNull();
    w.transcript(ID);
    expect(parkedRerunCommand(w.task), 'nothing said in the job: the parked conversation').toBe(`claude --resume '${ID}'`);
    w.transcript(OTHER);
    expect(parkedRerunCommand(w.task), "the job's own conversation").toBe(`claude --resume '${OTHER}'`);
  });

  it('counts a worker whose process is gone (a stale entry) as ended', () => {
    const w = world();
    rmSync(join(w.proc, '200'), { recursive: true });
    observeParkedJobs([{ task: w.task, panePid: PANE_PID }], w.proc);
    expect(w.task.parkedJob).toMatchObject({ id: JOB, alive: false });
  });

  it('keeps a known job alive where no process tree can be read (macOS): attaching fails loudly, a second writer would not', () => {
    const w = world();
    observeParkedJobs([{ task: w.task, panePid: PANE_PID }], w.proc);
    rmSync(w.proc, { recursive: true });
    observeParkedJobs([{ task: w.task, panePid: PANE_PID }], w.proc);
    expect(w.task.parkedJob).toMatchObject({ id: JOB, alive: true });
    expect(parkedRerunCommand(w.task)).toBe(`claude attach ${JOB}`);
  });

  it.each([
    ['an entry of a claude outside this pane', (w: ReturnType<typeof world>) => w.run(100, 77)],
    ['a parked job id that is not a short id', (w: ReturnType<typeof world>) => w.register(100, { sessionId: ID, parkedJobId: '../../x' })],
    ['an entry of another shape', (w: ReturnType<typeof world>) => w.register(100, { session_id: ID, parkedJobId: JOB })],
  ])('claims nothing from %s', (_label, spoil) => {
    const w = world();
    spoil(w);
    expect(observeParkedJobs([{ task: w.task, panePid: PANE_PID }], w.proc)).toBe(false);
    expect(w.task.parkedJob).toBeNull();
    expect(parkedRerunCommand(w.task)).toBeNull();
  });
});
