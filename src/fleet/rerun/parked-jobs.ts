// claude tasks whose conversation was parked as a background job. Measured on claude-code
// 2.1.332: `←` at the idle prompt forks the pane's conversation into a job of claude's daemon
// (a new id) and records the job's short id as `parkedJobId` in the pane claude's registry
// entry (`<claude home>/sessions/<pid>.json`); later prompts go to the job, which keeps running
// after the pane exits. So the task's latest work is in the job: rerun attaches to it while it
// lives (`claude attach <short>`: a `--resume` of a conversation a job holds is refused by
// 2.1.197 and silently turned into an attach by 2.1.332) and resumes the job's own
// conversation once it has ended. The registry is claude's internal format: without a
// trustworthy entry nothing is claimed and rerun does what it always did.
import type { LsRecord } from '../../control/protocol.js';
import { claudeTranscriptHasUser, detect, quoteShell } from '../../harness/index.js';
import { hasProcTree, isRunning, parentPid, readClaudeRegistry, type RegistryRecord } from '../../ownership/index.js';
import type { Task } from '../supervisor/task.js';

/** A job's short id as claude prints it (`claude attach <short>`): 8 lowercase hex digits. */
const SHORT_ID = /^[0-9a-f]{8}$/;

/** What `ls --json` says of a task's parked job. */
export function parkedJobView(task: Pick<Task, 'parkedJob'>): LsRecord['parkedJob'] {
  const job = task.parkedJob;
  return job ? { id: job.id, sessionId: job.sessionId, alive: job.alive } : null;
}

/**
 * Refreshes every claude task's parked job from its home's registry, read once per home.
 * A running task's own claude is the entry whose pid is the pane's process or its child —
 * never the entry's `tmux` field alone: pane ids repeat across tmux servers. `proc` is the
 * proc file system's root. Returns whether anything changed.
 */
export function observeParkedJobs(tasks: ReadonlyArray<{ task: Task; panePid: number | null }>, proc: string): boolean {
  const registries = new Map<string, RegistryRecord[]>();
  const registry = (home: string): RegistryRecord[] => {
    let records = registries.get(home);
    if (records === undefined) {
      const read = readClaudeRegistry(home);
      records = read.kind === 'read' ? read.records : [];
      registries.set(home, records);
    }
    return records;
  };
  let changed = false;
  for (const { task, panePid } of tasks) {
    const home = task.parkedJob?.home ?? (task.harness === 'claude' ? task.home : null);
    if (home === null) continue;
    const records = registry(home);
    const before = JSON.stringify(task.parkedJob ?? null);
    if (task.endedAt === null && panePid !== null && task.harness === 'claude') {
      const own = records.find((r) => r.kind !== 'bg' && (r.pid === panePid || parentPid(proc, r.pid) === panePid));
      const id = own?.parkedJobId ?? null;
      if (id !== null && SHORT_ID.test(id) && id !== task.parkedJob?.id) {
        task.parkedJob = { id, sessionId: null, from: own!.sessionId, alive: true, home, program: programOf(task.command ?? 'claude') };
      }
    }
    const job = task.parkedJob;
    if (job) {
      const worker = records.find((r) => r.jobId === job.id && r.kind === 'bg');
      // Without a proc tree (macOS) the worker's life cannot be seen: it counts as alive, since
      // attaching to a job that ended fails where claude says so, while resuming the fork of a
      // job still running would have two processes append to one transcript.
      job.alive = worker !== undefined && (isRunning(proc, worker.pid) || !hasProcTree(proc));
      if (worker) job.sessionId = worker.sessionId;
    }
    if (JSON.stringify(task.parkedJob ?? null) !== before) changed = true;
  }
  return changed;
}

/**
 * The command a rerun of a task with a parked job starts: attach to the live job; once it has
 * ended, resume its conversation — or, when nothing was said in the job (claude writes a
 * fork's transcript at its first message: measured, the fork is then not resumable), the
 * conversation the pane had parked. null: the usual rerun.
 */
export function parkedRerunCommand(task: Pick<Task, 'parkedJob' | 'cwd'>): string | null {
  const job = task.parkedJob;
  if (!job) return null;
  if (job.alive) return `${job.program} attach ${job.id}`;
  const latest = [job.sessionId, job.from].find((id) => id !== null && claudeTranscriptHasUser(job.home, task.cwd, id));
  return latest ? `${job.program} --resume ${quoteShell(latest)}` : null;
}

function programOf(command: string): string {
  const detection = detect(command);
  return detection.form === 'opaque' ? 'claude' : detection.program;
}
