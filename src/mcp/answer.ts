// A command line's run as a tool's answer: its JSON document as the command printed it, and
// when the command failed, its stderr and exit code in words. Pure.
import type { Captured } from './captured.js';

export interface ToolAnswer {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

const text = (t: string) => ({ type: 'text' as const, text: t });

/** The longest word told whole in a message or the log line (a message sent may be 256 KiB). */
const WORD_MAX = 80;

/** `fleetcom wait --json …` in the words of a message, a long word cut. */
export function commandWords(argv: readonly string[]): string {
  const told = (w: string) => (w.length <= WORD_MAX ? w : `${w.slice(0, WORD_MAX - 20)}…(${w.length} characters)`);
  return ['fleetcom', ...argv].map(told).map((w) => (/^[\w%@./:=,+-]+$/.test(w) ? w : JSON.stringify(w))).join(' ');
}

/** The one JSON document on stdout, or undefined when there is none. */
export function jsonOf(stdout: string): unknown {
  const trimmed = stdout.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

export function failure(run: Captured, deadlineMs: number): ToolAnswer {
  const what = commandWords(run.argv);
  if (run.exitCode === null) {
    return { content: [text(`${what} gave no answer within ${deadlineMs / 1000} s (it may still finish: ls shows the fleet as it is)`)], isError: true };
  }
  const stderr = run.stderr.trim();
  return { content: [text(`${what} failed (exit ${run.exitCode}${exitMeaning(run.exitCode)})${stderr === '' ? '' : `:\n${stderr}`}`)], isError: true };
}

function exitMeaning(code: number): string {
  return code === 2 ? ': bad usage' : code === 3 ? ': no fleet is running' : '';
}

/** The wait answered before its condition held: not an error, the state to ask again about. */
function pendingWait(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as Record<string, unknown>).timedOut === true;
}

/**
 * The command's JSON as its answer. A command that printed its document and exited non-zero
 * (a send not taken, a wait not met) answered all the same: the document says what happened,
 * and stderr is added in words. Without a document, it failed.
 */
export function answerOf(run: Captured, deadlineMs: number): ToolAnswer {
  const json = run.exitCode === null ? undefined : jsonOf(run.stdout);
  if (json === undefined) return failure(run, deadlineMs);
  const content = [text(run.stdout.trim())];
  if (run.exitCode !== 0) {
    const note = pendingWait(json) ? 'still pending: not met within this call; call wait again to go on waiting' : run.stderr.trim();
    if (note !== '') content.push(text(`exit ${run.exitCode}: ${note}`));
  }
  return { content };
}

/** run's answer: the task it started and, with a first message, that send's verdict. */
export function runAnswer(task: number, send: Captured | null, deadlineMs: number, skipped: string | null): ToolAnswer {
  const sent = send === null ? null : jsonOf(send.stdout);
  const doc = { task, send: sent ?? null };
  const content = [text(JSON.stringify(doc))];
  if (skipped !== null) content.push(text(skipped));
  else if (send !== null && sent === undefined) content.push(...failure(send, deadlineMs).content.map((c) => text(`task ${task} started; its first message was not sent: ${c.text}`)));
  else if (send !== null && send.exitCode !== 0) content.push(text(`exit ${send.exitCode}: ${send.stderr.trim()}`));
  return { content };
}
