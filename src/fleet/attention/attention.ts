// Each task's attention (working / waiting / permission), kept in memory and rebuilt from the
// run's signal file (its harness's attention rule): an `.events` file beside the capture file
// (claude's hooks, opencode's plugin) or the capture file itself (codex's notifier).
// A supervisor that restarts reads the files again from the start, so nothing is persisted.
import { readFileSync } from 'node:fs';
import { EventsReader, eventsPath } from '../../capture/index.js';
import {
  applySignal, captureId, harnessFor, NO_ATTENTION, titleStep, workingFromOutput, worthNotifying,
  type Attention, type AttentionRule, type AttentionState,
} from '../../harness/index.js';
import { evidenceOf, type Task } from '../supervisor/task.js';

/** codex has no prompt event: output this long after a completed turn means a new one began. */
export const CODEX_WORKING_AFTER_MS = 2_000;

export interface AttentionChange {
  task: Task;
  from: Attention | null;
  state: AttentionState;
  /** Whether the user is to be told (one notification per transition, never on a replay). */
  notify: boolean;
}

interface Entry {
  run: number;
  reader: EventsReader | null;
  state: AttentionState;
}

export class AttentionBoard {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly deps: { now: () => number; log: (line: string) => void }) {}

  /** The task's attention now; an exited task, or one whose agent sends no signals, has none. */
  of(task: Task): AttentionState {
    const entry = this.entries.get(task.id);
    if (task.endedAt !== null || !entry || entry.run !== task.run) return NO_ATTENTION;
    return entry.state;
  }

  /**
   * Reads what the task's signal file gained. `quiet` (a file read from its start after an
   * adoption) updates the state without notifying: those transitions are history.
   */
  refresh(task: Task, opts: { quiet?: boolean } = {}): AttentionChange | null {
    const entry = this.entry(task);
    if (entry.reader === null || task.endedAt !== null) return null;
    const batch = entry.reader.read();
    for (const problem of batch.problems) this.deps.log(`task ${task.id}: ${entry.reader.path} ${problem}`);
    if (batch.payloads.length === 0) return null;
    const rule = ruleOf(task);
    if (rule === null) return null;
    const fromCapture = rule.conversationFromCapture;
    if (fromCapture) entry.state = { ...entry.state, conversation: this.captureConversation(task) };
    const before = entry.state.attention;
    const beforeQuestion = entry.state.question === true;
    let notify = false;
    // The attention the last change left, when the batch changed it at all: a turn that began
    // and ended between two reads (a prompt and its reply in one batch) is still a turn.
    let lastFrom: Attention | null | undefined;
    const ignored: string[] = [];
    const now = this.deps.now();
    for (const payload of batch.payloads) {
      const result = rule.signal(payload);
      if (result.kind === 'ignored') {
        ignored.push(result.why);
        continue;
      }
      // codex: until its conversation is known (its rollout exists), no payload is its own.
      if (fromCapture && entry.state.conversation === null) {
        ignored.push(`${result.signal.event} before the task's conversation is known`);
        continue;
      }
      const step = applySignal(entry.state, result.signal, now);
      if (step.kind === 'ignored') {
        ignored.push(step.why);
        continue;
      }
      entry.state = step.state;
      if (step.kind === 'changed') {
        notify = worthNotifying(step.from, step.state.attention, result.signal) || result.signal.question === true;
        lastFrom = step.from;
      }
    }
    // The codex notifier appends every payload to the capture file; most are not attention's.
    if (ignored.length > 0 && rule.file === 'events') {
      this.deps.log(`task ${task.id}: ignored ${ignored.length} event(s): ${ignored[0]}${ignored.length > 1 ? ', …' : ''}`);
    }
    if (lastFrom === undefined) return null;
    if (entry.state.attention === before && (entry.state.question === true) === beforeQuestion && lastFrom === before) return null;
    return { task, from: lastFrom, state: entry.state, notify: notify && !opts.quiet };
  }

  /**
   * An adopted agent's attention as its own record states it (claude's registry `status`:
   * fleetcom's hooks are not in a process it did not start). The first report after adoption
   * is not news; later transitions are told like a hook's.
   */
  reported(task: Task, report: { attention: Attention; message: string | null } | null, opts: { quiet?: boolean } = {}): AttentionChange | null {
    if (task.endedAt !== null) return null;
    const entry = this.entry(task);
    const before = entry.state.attention;
    const attention = report?.attention ?? null;
    const message = report?.message ?? null;
    if (attention === before) {
      entry.state = { ...entry.state, message };
      return null;
    }
    const first = before === null;
    entry.state = { attention, since: attention === null ? null : this.deps.now(), message, conversation: task.tracedId ?? null };
    return { task, from: before, state: entry.state, notify: !opts.quiet && worthNotifying(before, attention, { starts: first }) };
  }

  /**
   * The pane's title, for an agent whose title tells what no event does (codex's approval
   * prompt, all of gemini's states).
   */
  titleSeen(task: Task, title: string | undefined): AttentionChange | null {
    const rule = ruleOf(task)?.title;
    if (rule === undefined || title === undefined || task.endedAt !== null) return null;
    const entry = this.entry(task);
    const next = titleStep(entry.state, rule.read(title), this.deps.now(), rule);
    if (next === null) return null;
    const from = entry.state.attention;
    entry.state = next;
    // News: an approval prompt, and (a title that tells all) a turn that ended; not a start.
    const notify = next.attention === 'permission' || (rule.tells === 'all' && next.attention === 'waiting' && from === 'working');
    return { task, from, state: next, notify };
  }

  /** codex only: new output well after a completed turn means it is working again. */
  outputSeen(task: Task): AttentionChange | null {
    const entry = this.entries.get(task.id);
    if (ruleOf(task)?.conversationFromCapture !== true || task.endedAt !== null || !entry || entry.run !== task.run) return null;
    const next = workingFromOutput(entry.state, task.lastOutputAt, CODEX_WORKING_AFTER_MS);
    if (next === null) return null;
    const from = entry.state.attention;
    entry.state = next;
    return { task, from, state: next, notify: false };
  }

  forget(taskId: number): void {
    this.entries.delete(taskId);
  }

  /** The task's entry for its current run; a rerun starts a fresh one. */
  private entry(task: Task): Entry {
    const known = this.entries.get(task.id);
    if (known && known.run === task.run) return known;
    const entry: Entry = { run: task.run, reader: signalFile(task), state: { ...NO_ATTENTION, conversation: startConversation(task) } };
    this.entries.set(task.id, entry);
    return entry;
  }

  /** The id the capture resolves to now (codex: the last payload whose rollout exists). */
  private captureConversation(task: Task): string | null {
    const evidence = evidenceOf(task);
    return (evidence && captureId(evidence, this.deps.now())) ?? task.captured;
  }
}

function ruleOf(task: Task): AttentionRule | null {
  return task.harness === null ? null : harnessFor(task.harness).attention;
}

function signalFile(task: Task): EventsReader | null {
  const rule = ruleOf(task);
  if (task.captureFile === null || rule === null || rule.file === 'none') return null;
  return new EventsReader(rule.file === 'capture' ? task.captureFile : eventsPath(task.captureFile));
}

/**
 * The conversation before any signal is read, for an agent whose events carry it: the capture
 * file's latest (claude's holds the latest SessionStart, which outlives an events file
 * restarted at its size cap), else the pin or target.
 */
function startConversation(task: Task): string | null {
  const rule = ruleOf(task);
  if (task.harness === null || rule === null || rule.conversationFromCapture) return null;
  let captured: string | undefined;
  try {
    if (task.captureFile) captured = harnessFor(task.harness).parseCapture(readFileSync(task.captureFile, 'utf8')).at(-1);
  } catch {
    captured = undefined;
  }
  return captured ?? task.pinnedId ?? task.targetId;
}
