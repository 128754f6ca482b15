import * as path from 'node:path';
import type { CorrelationContext, Harness } from '../harness.js';
import { codexConversationOf, findRollout, FIRST_LINE_MAX, rolloutId, rolloutsIn, sessionMeta, threadKind, threadOfRollout } from './rollouts.js';
import { isValidId, v7TimeMs } from '../ids.js';
import { quoteShell, tomlBasicString } from '../quote.js';
import { lastHint } from '../scrape.js';
import { readTextFile } from '../fs-read.js';
import { isJsonObject } from '../json-shape.js';
import { inWindow, soleCandidate, utcDateFolders, WINDOW_MS } from '../store-window.js';
import { agentProgram, namesNone, unreadableTraces, type AgentProcess, type ProcessTraces } from '../probe.js';
import { codexSignal } from '../attention.js';
import { codexTitle } from './title.js';
import { readCodexRoute } from './route.js';
import { codexHistory } from './history.js';
import { homeFromVariable } from '../home-rules.js';
import { codexConversing } from './conversing.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan, RunEvidence, StoredConversation } from '../types.js';

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
 * and is a user thread. A subagent's turn may notify after its parent's (it races the parent's
 * follow-up on 0.171.0: both orders measured), so without the second check the task would
 * switch to the subagent's thread.
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
  const threads = held.map((file) => ({ file, id: rolloutId(path.basename(file))!, thread: threadOfRollout(file) }));
  const unread = threads.find((t) => t.thread.kind === 'unknown');
  if (unread) return namesNone(`the first record of the rollout it holds open, ${unread.file}, cannot be read`);
  const own = threads.filter((t) => t.thread.kind === 'user');
  const [only] = own;
  if (own.length === 1 && only) return { conversation: { kind: 'id', id: only.id, from: `the rollout it holds open, ${only.file}` }, attention: null };
  if (own.length > 1) return namesNone(`it holds ${own.length} conversations open (${own.map((t) => t.id).join(', ')}): which is its own cannot be told`);
  if (threads.length > 0) return namesNone('it holds only subagent threads (children of another thread) open, never a conversation of its own');
  const daemon = process.open.daemonFiles.find((held) => isRollout(held.file));
  if (daemon) {
    return namesNone(
      `its rollouts are held by codex's app-server daemon (pid ${daemon.pid}), which holds those of every codex connected to it: ` +
        'which is this one\'s is known once it exits and prints its hint',
    );
  }
  return namesNone('it holds no rollout open (codex writes it at the first message; a codex on the shared app-server daemon holds none itself)');
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
  probe: { program: (argv, dirs) => agentProgram('codex', argv, dirs), traces: codexTraces },
  conversationOf: codexConversationOf,
  stored,
  // codex keeps its rollout open for the whole session (measured on 0.171.0: the native binary
  // holds `sessions/…/rollout-…-<id>.jsonl` open after the first turn, its subagents' beside it).
  ownership: { kind: 'open-file', file: findRollout, looksLike: (target) => target.endsWith('.jsonl') && target.includes('/rollout-') },
  warnings: () => [],
  attention: { file: 'capture', signal: codexSignal, conversationFromCapture: true, title: { read: codexTitle, tells: 'permission', asking: 'codex asks for your approval' } },
  history: codexHistory,
  conversing: codexConversing,
};
