import * as path from 'node:path';
import type { CorrelationContext, Harness } from './harness.js';
import { codexConversationOf, findRollout, FIRST_LINE_MAX, rolloutsIn, sessionMeta, threadKind, threadOfRollout } from './codex-rollouts.js';
import { isValidId, v7TimeMs } from './ids.js';
import { quoteShell, tomlBasicString } from './quote.js';
import { lastHint } from './scrape.js';
import { readTextFile } from './fs-read.js';
import { isJsonObject } from './json-shape.js';
import { inWindow, soleCandidate, utcDateFolders, WINDOW_MS } from './store-window.js';
import { codexSignal } from './attention.js';
import { readCodexRoute } from './codex-route.js';
import { homeFromVariable } from './home-rules.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan, RunEvidence, StoredConversation } from './types.js';

// codex: no way to choose the id; a notify override appends each turn's payload to the capture
// file, and the id that counts is the last one whose rollout exists and is a user thread (8.3,
// 9.5): the title thread has no rollout, a subagent's thread has one that says so
// (codex-rollouts.ts), and both notify like the user's.

/** Date folders 8.3 probes: UTC spawn day − 2 … end-of-run day + 1. */
function rollouts(evidence: RunEvidence, now: number): Array<{ file: string; id: string }> {
  return rolloutsIn(evidence.home, utcDateFolders(evidence.spawnedAt, evidence.endedAt ?? now, 2, 1));
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

/**
 * 8.3 and 9.5: the thread-id of the last payload whose rollout exists under the task's home
 * and is a user thread. A subagent's turn notifies after its parent's (measured on 0.171.0),
 * so without the second check the task would switch to the subagent's thread.
 */
function captureId(evidence: RunEvidence, now: number): string | null {
  if (evidence.captureFile === null) return null;
  const file = readTextFile(evidence.captureFile);
  if (file.kind !== 'text') return null;
  const ids = parseCapture(file.text);
  if (ids.length === 0) return null;
  const existing = new Map(rollouts(evidence, now).map((rollout) => [rollout.id, rollout.file]));
  for (let i = ids.length - 1; i >= 0; i--) {
    const id = ids[i];
    const rollout = id === undefined ? undefined : existing.get(id);
    if (rollout !== undefined && threadOfRollout(rollout).kind === 'user') return id ?? null;
  }
  return null;
}

/** The first record names this cwd exactly and is a user thread. */
function firstRecordMatches(file: string, cwd: string): boolean {
  const meta = sessionMeta(file, FIRST_LINE_MAX);
  return meta !== null && meta.cwd === cwd && threadKind(meta).kind === 'user';
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
  conversationOf: codexConversationOf,
  stored,
  // codex keeps its rollout open for the whole session (measured on 0.171.0: the native binary
  // holds `sessions/…/rollout-…-<id>.jsonl` open after the first turn, its subagents' beside it).
  ownership: { kind: 'open-file', file: findRollout, looksLike: (target) => target.endsWith('.jsonl') && target.includes('/rollout-') },
  warnings: () => [],
  attention: { file: 'capture', signal: codexSignal, conversationFromCapture: true },
};
