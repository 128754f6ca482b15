import * as path from 'node:path';
import type { CorrelationContext, Harness } from './harness.js';
import { isValidId, v7TimeMs } from './ids.js';
import { quoteShell, tomlBasicString } from './quote.js';
import { lastHint } from './scrape.js';
import { listDir, readFirstLine, readTextFile } from './fs-read.js';
import { isJsonObject } from './json-shape.js';
import { inWindow, soleCandidate, utcDateFolders, WINDOW_MS } from './store-window.js';
import { codexSignal } from './attention.js';
import { readCodexRoute } from './codex-route.js';
import { homeFromVariable } from './home-rules.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan, RunEvidence, StoredConversation } from './types.js';

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
  const route = input.codexRoute ?? readCodexRoute(input.home);
  if (route.kind === 'opaque') return { suffix: '', env: {}, pinnedId, captures: false };
  const script = path.join(input.namespace, 'codex-notify.sh');
  return {
    suffix: ` -c ${quoteShell(`notify=[${tomlBasicString(script)}]`)}`,
    env: {
      FLEETCOM_CAPTURE_FILE: input.captureFile,
      FLEETCOM_NOTIFY_CHAIN: route.kind === 'chain' ? route.argv.join('\n') : '',
    },
    pinnedId,
    captures: true,
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

/** The first record names this cwd exactly and is not a subagent's thread. */
function firstRecordMatches(file: string, cwd: string): boolean {
  const line = readFirstLine(file, FIRST_LINE_MAX);
  if (line === null) return false;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return false;
  }
  const payload = isJsonObject(value) ? value.payload : undefined;
  if (!isJsonObject(payload) || payload.cwd !== cwd) return false;
  const source = payload.thread_source;
  const subagent = source === 'subagent' || (typeof source === 'object' && source !== null && 'subagent' in source);
  return !subagent;
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

/**
 * The rollout `sessions/YYYY/MM/DD/rollout-*-<id>.jsonl`. codex writes it at the first message,
 * so its existence means the conversation holds one. A v7 id names its day (± a day for the
 * local time codex may file it under); any other id is looked for in every date folder.
 */
export function findRollout(home: string, id: string): string | null {
  const root = path.join(home, 'sessions');
  const time = v7TimeMs(id);
  const folders = time !== null ? utcDateFolders(time, time, 1, 1) : everyDateFolder(root);
  for (const folder of folders) {
    const dir = path.join(root, ...folder.split('/'));
    for (const entry of listDir(dir)) {
      if (entry.isFile() && rolloutId(entry.name) === id) return path.join(dir, entry.name);
    }
  }
  return null;
}

function everyDateFolder(root: string): string[] {
  const folders: string[] = [];
  const dirsIn = (dir: string) => listDir(dir).filter((e) => e.isDirectory()).map((e) => e.name);
  for (const y of dirsIn(root)) for (const m of dirsIn(path.join(root, y))) for (const d of dirsIn(path.join(root, y, m))) folders.push(`${y}/${m}/${d}`);
  return folders;
}

function stored(home: string, _cwd: string, id: string): StoredConversation {
  const file = findRollout(home, id);
  const root = path.join(home, 'sessions');
  return file === null ? { found: false, path: root, why: `no codex rollout for ${id} under ${root}` } : { found: true, path: file };
}

export const codex: Harness = {
  name: 'codex',
  selectors: ['resume'],
  isId: isValidId,
  idShape: 'a lowercase 8-4-4-4-12 uuid',
  home: homeFromVariable('codex', 'CODEX_HOME', '.codex'),
  assets: [],
  instrument,
  parseCapture,
  captureId,
  scrapeExit: (text) =>
    lastHint(text, { prefixes: ['codex resume '], parenthesised: { lineMarkers: ['codex resume', 'then select'] } }),
  correlate,
  resumable: () => true,
  stored,
  // codex keeps its rollout open for the whole session (measured on 0.171.0: the native binary
  // holds `sessions/…/rollout-…-<id>.jsonl` open after the first turn).
  ownership: { kind: 'open-file', file: findRollout, looksLike: (target) => target.endsWith('.jsonl') && target.includes('/rollout-') },
  warnings: () => [],
  attention: { file: 'capture', signal: codexSignal, conversationFromCapture: true },
};
