import * as path from 'node:path';
import type { CorrelationContext, Harness } from './harness.js';
import { isValidId, v7TimeMs } from './ids.js';
import { quoteShell, tomlBasicString } from './quote.js';
import { lastHint } from './scrape.js';
import { listDir, readFirstLine, readTextFile } from './fs-read.js';
import { isJsonObject } from './json-shape.js';
import { inWindow, soleCandidate, utcDateFolders, WINDOW_MS } from './store-window.js';
import { agentProgram, namesNone, unreadableTraces, type AgentProcess, type ProcessTraces } from './probe.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan, RunEvidence } from './types.js';

// codex: no way to choose the id; a notify override appends each turn's payload to the capture
// file, and the id that counts is the last one whose rollout exists (8.3). Rollouts live in
// `<home>/sessions/YYYY/MM/DD/rollout-<time>-<v7 id>.jsonl`.

/** The longest first line of a rollout fleetcom reads. */
export const FIRST_LINE_MAX = 64 * 1024;

/** The id of a rollout file name `rollout-*-<id>.jsonl`, or null. */
export function rolloutId(name: string): string | null {
  const prefix = 'rollout-';
  const suffix = '.jsonl';
  if (!name.startsWith(prefix) || !name.endsWith(suffix)) return null;
  const stem = name.slice(0, -suffix.length);
  if (stem.length < prefix.length + 1 + 36 || stem[stem.length - 37] !== '-') return null;
  const id = stem.slice(-36);
  return isValidId(id) ? id : null;
}

/** Date folders 8.3 probes: UTC spawn day − 2 … end-of-run day + 1. */
function dateFolders(evidence: RunEvidence, now: number): string[] {
  return utcDateFolders(evidence.spawnedAt, evidence.endedAt ?? now, 2, 1);
}

/** Every rollout file in the probed folders: its path and id. */
function rollouts(evidence: RunEvidence, now: number): Array<{ file: string; id: string }> {
  const found: Array<{ file: string; id: string }> = [];
  for (const folder of dateFolders(evidence, now)) {
    const dir = path.join(evidence.home, 'sessions', ...folder.split('/'));
    for (const entry of listDir(dir)) {
      const id = entry.isFile() ? rolloutId(entry.name) : null;
      if (id !== null) found.push({ file: path.join(dir, entry.name), id });
    }
  }
  return found;
}

function instrument(detection: AgentDetection, input: InstrumentInput): InstrumentPlan {
  const pinnedId = detection.form === 'resume' ? detection.targetId : null;
  const route = input.codexRoute;
  if (route.kind === 'opaque') return { suffix: '', env: {}, pinnedId };
  const script = path.join(input.namespace, 'codex-notify.sh');
  return {
    suffix: ` -c ${quoteShell(`notify=[${tomlBasicString(script)}]`)}`,
    env: {
      FLEETCOM_CAPTURE_FILE: input.captureFile,
      FLEETCOM_NOTIFY_CHAIN: route.kind === 'chain' ? route.argv.join('\n') : '',
    },
    pinnedId,
  };
}

/** The valid `thread-id`s of the capture file's `agent-turn-complete` lines, oldest first. */
function parseCapture(text: string): string[] {
  const ids: string[] = [];
  for (const line of text.split('\n')) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isJsonObject(value) || value.type !== 'agent-turn-complete') continue;
    const id = value['thread-id'];
    if (typeof id === 'string' && isValidId(id)) ids.push(id);
  }
  return ids;
}

/** 8.3: the thread-id of the last payload whose rollout exists under the task's home. */
function captureId(evidence: RunEvidence, now: number): string | null {
  if (evidence.captureFile === null) return null;
  const file = readTextFile(evidence.captureFile);
  if (file.kind !== 'text') return null;
  const ids = parseCapture(file.text);
  if (ids.length === 0) return null;
  const existing = new Set(rollouts(evidence, now).map((rollout) => rollout.id));
  for (let i = ids.length - 1; i >= 0; i--) {
    const id = ids[i];
    if (id !== undefined && existing.has(id)) return id;
  }
  return null;
}

/** A rollout's first record (`session_meta`): the cwd it names and whose thread it is; null when unreadable. */
export function rolloutMeta(file: string): { cwd: unknown; subagent: boolean } | null {
  const line = readFirstLine(file, FIRST_LINE_MAX);
  if (line === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const payload = isJsonObject(value) ? value.payload : undefined;
  if (!isJsonObject(payload)) return null;
  const source = payload.thread_source;
  const subagent = source === 'subagent' || (typeof source === 'object' && source !== null && 'subagent' in source);
  return { cwd: payload.cwd, subagent };
}

/** The first record names this cwd exactly and is not a subagent's thread. */
function firstRecordMatches(file: string, cwd: string): boolean {
  const meta = rolloutMeta(file);
  return meta !== null && meta.cwd === cwd && !meta.subagent;
}

/** 8.5: v7 time between spawn − 30 s and the end of the run, first record for this cwd. */
function correlate(evidence: RunEvidence, context: CorrelationContext): string | null {
  const from = evidence.spawnedAt - WINDOW_MS;
  const to = evidence.endedAt ?? context.now;
  const ids: string[] = [];
  for (const rollout of rollouts(evidence, context.now)) {
    const time = v7TimeMs(rollout.id);
    if (time === null || !inWindow(time, from, to) || context.excluded.has(rollout.id)) continue;
    if (firstRecordMatches(rollout.file, evidence.cwd)) ids.push(rollout.id);
  }
  return soleCandidate(ids, context.excluded);
}

// A codex started by hand: its conversation is the rollout it holds open. Measured on 0.171.0:
// run embedded (`-c …`, `--no-daemon`) the TUI holds its own rollout open, and its subagents'
// beside it (their first record says `thread_source: "subagent"`: never the task's); run plain,
// it starts codex's app-server daemon (setsid, a session of its own, as a child of the first
// TUI) and every later TUI connects to that one: the daemon holds all their rollouts, so a
// rollout held there names no single TUI — the second TUI's rollout was held open under the
// first TUI's process tree. Such a codex is adopted with no id until its exit hint names it.

function codexTraces(process: AgentProcess, home: string): ProcessTraces {
  if ('unreadable' in process.open) return unreadableTraces(`its open files cannot be listed (${process.open.unreadable})`);
  const root = path.join(home, 'sessions') + path.sep;
  const isRollout = (file: string) => file.startsWith(root) && rolloutId(path.basename(file)) !== null;
  const held = [...new Set(process.open.files.filter(isRollout))];
  const threads = held.map((file) => ({ file, id: rolloutId(path.basename(file))!, meta: rolloutMeta(file) }));
  const unread = threads.filter((t) => t.meta === null);
  if (unread.length > 0) return namesNone(`the first record of the rollout it holds open, ${unread[0]!.file}, cannot be read`);
  const own = threads.filter((t) => !t.meta!.subagent);
  const [only] = own;
  if (own.length === 1 && only) return { conversation: { kind: 'id', id: only.id, from: `the rollout it holds open, ${only.file}` }, attention: null };
  if (own.length > 1) return namesNone(`it holds ${own.length} conversations open (${own.map((t) => t.id).join(', ')}): which is its own cannot be told`);
  if (threads.length > 0) return namesNone('it holds only subagent threads open, never a conversation of its own');
  const daemon = process.open.daemonFiles.find((held) => isRollout(held.file));
  if (daemon) {
    return namesNone(
      `its rollouts are held by codex's app-server daemon (pid ${daemon.pid}), which holds those of every codex connected to it: ` +
        'which is this one\'s is known once it exits and prints its hint',
    );
  }
  return namesNone('it holds no rollout open (codex writes it at the first message; a codex on the shared app-server daemon holds none itself)');
}

export const codex: Harness = {
  name: 'codex',
  selector: 'resume',
  homeVar: 'CODEX_HOME',
  homeDir: '.codex',
  instrument,
  parseCapture,
  captureId,
  scrapeExit: (text) =>
    lastHint(text, { prefixes: ['codex resume '], parenthesised: { lineMarkers: ['codex resume', 'then select'] } }),
  correlate,
  resumable: () => true,
  probe: { program: (argv, dirs) => agentProgram('codex', argv, dirs), traces: codexTraces },
};
