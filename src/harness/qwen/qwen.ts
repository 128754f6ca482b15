import * as path from 'node:path';
import { qwenConversing } from './conversing.js';
import { QWEN_ASSETS, QWEN_DEFAULTS_FILE, qwenOverlayDisplaces } from './hooks.js';
import { qwenSignal } from './signal.js';
import { qwenWarnings } from './warnings.js';
import { argvProbe } from '../argv-probe.js';
import type { Harness } from '../harness.js';
import { homeFromVariable } from '../home-rules.js';
import { isValidId } from '../ids.js';
import { listDir, readTextFile, someLine, statOrNull } from '../fs-read.js';
import { isJsonObject, jsonObjectOf } from '../json-shape.js';
import { lastHint } from '../scrape.js';
import { pinnedLaunch } from '../pin.js';
import { qwenHistory } from './history.js';
import { qwenProjectDir, qwenTranscript } from './store.js';
import type { AgentDetection, ConversationOf, ConversationRoots, InstrumentInput, InstrumentPlan, RunEvidence, StoredConversation } from '../types.js';

// qwen-code (a gemini-cli fork): pinned with `--session-id`, captured and heard through hooks of
// fleetcom's system-defaults overlay (hooks.ts), the exit hint, and a transcript that must hold
// a typed message for the id to count. Measured on 0.24.4: the transcript is
// `<QWEN_HOME or ~/.qwen>/projects/<cwd, every non-alphanumeric → ->/chats/<id>.jsonl`,
// written at the first message (a `<id>.runtime.json` beside it exists from the start, with
// or without a message); a subagent's transcript is `<project>/subagents/<parent id>/
// agent-<agent id>.jsonl`, never in chats/. With no message qwen prints no hint and writes no
// transcript, and `qwen --resume <id>` of it fails (`No saved session found with ID …`, rc 1).

/** A message the user typed: `type: "user"` of this session with some text in its parts. */
function isUserRecord(line: string, id: string): boolean {
  const value = jsonObjectOf(line);
  if (value === null || value.type !== 'user' || value.sessionId !== id) return false;
  const message = value.message;
  const parts = isJsonObject(message) && Array.isArray(message.parts) ? message.parts : [];
  return parts.some((part) => isJsonObject(part) && typeof part.text === 'string' && part.text.trim() !== '');
}

/** Whether `qwen --resume <id>` in `cwd` has a conversation with a message to come back to. */
export function qwenTranscriptHasUser(home: string, cwd: string, id: string): boolean {
  return isValidId(id) && someLine(qwenTranscript(home, cwd, id), (line) => isUserRecord(line, id));
}

/** The parent session whose `subagents/<parent>/agent-<id>.jsonl` this cwd's project holds, or null. */
function subagentParent(home: string, cwd: string, id: string): string | null {
  const root = path.join(qwenProjectDir(home, cwd), 'subagents');
  for (const folder of listDir(root)) {
    if (!folder.isDirectory() || folder.name === id) continue;
    if (statOrNull(path.join(root, folder.name, `agent-${id}.jsonl`))?.isFile()) return folder.name;
  }
  return null;
}

/**
 * 9.5: an id that names a subagent's transcript stands for the session that ran it (when that
 * one has a message here), else for none; an id with a transcript of its own, or found nowhere,
 * is its own (resumable decides).
 */
function conversationOf(id: string, roots: ConversationRoots): ConversationOf {
  if (qwenTranscriptHasUser(roots.home, roots.cwd, id)) return { kind: 'own', id };
  const parent = subagentParent(roots.home, roots.cwd, id);
  if (parent === null) return { kind: 'own', id };
  if (!qwenTranscriptHasUser(roots.home, roots.cwd, parent)) {
    return { kind: 'none', child: id, note: `a subagent transcript of ${parent}, which has no conversation of ${roots.cwd}` };
  }
  return { kind: 'parent', id: parent, child: id, note: `a subagent transcript of ${parent}` };
}

/**
 * The pin, and fleetcom's hooks through a system-defaults overlay of its own — unless that would
 * stand in for a system-defaults file of the machine's or the user's (hooks.ts): then the pin
 * alone, and the task has no signals. `QWEN_CODE` is cleared so that the script's check for a
 * qwen started by a qwen tool holds for this one even when fleetcom itself runs in such a tool.
 */
function instrument(detection: AgentDetection, input: InstrumentInput): InstrumentPlan {
  // The platform is a constant of this process, not the user's environment.
  if (qwenOverlayDisplaces(input.env, process.platform) !== null) return pinnedLaunch(detection, input);
  const env = { FLEETCOM_CAPTURE_FILE: input.captureFile, QWEN_CODE_SYSTEM_DEFAULTS_PATH: path.join(input.namespace, QWEN_DEFAULTS_FILE), QWEN_CODE: '' };
  return pinnedLaunch(detection, input, { suffix: '', env, captures: true });
}

/** SessionStart's `session_id`, when the capture file is that payload (claude's rule: nothing else says where qwen is). */
function parseCapture(text: string): string[] {
  const payload = jsonObjectOf(text);
  if (payload === null || payload.hook_event_name !== 'SessionStart') return [];
  return isValidId(payload.session_id) ? [payload.session_id] : [];
}

/** The session SessionStart named last (the pin at start, a new one after `/clear`), once its transcript holds a message. */
function captureId(evidence: RunEvidence): string | null {
  if (evidence.captureFile === null) return null;
  const file = readTextFile(evidence.captureFile);
  if (file.kind !== 'text') return null;
  const [id] = parseCapture(file.text);
  return id !== undefined && qwenTranscriptHasUser(evidence.home, evidence.cwd, id) ? id : null;
}

function stored(home: string, cwd: string, id: string): StoredConversation {
  const file = qwenTranscript(home, cwd, id);
  if (statOrNull(file) === null) return { found: false, path: file, why: `no qwen transcript for ${id} of ${cwd}` };
  if (!qwenTranscriptHasUser(home, cwd, id)) return { found: false, path: file, why: `the qwen transcript ${file} holds no message` };
  return { found: true, path: file };
}

export const qwen: Harness = {
  name: 'qwen',
  selectors: ['--resume'],
  isId: isValidId,
  idShape: 'a lowercase 8-4-4-4-12 uuid',
  // QWEN_HOME is its global folder (`~/.qwen`). QWEN_RUNTIME_DIR and the `advanced.runtimeOutputDir`
  // setting move the projects elsewhere: fleetcom does not follow them, so such a task's id never
  // finds its transcript and it reruns fresh (docs/agents.md).
  home: homeFromVariable('qwen', 'QWEN_HOME', '.qwen'),
  assets: QWEN_ASSETS,
  instrument,
  parseCapture,
  captureId,
  // `/clear` starts a new session (measured): once SessionStart names it, the pin is left behind.
  captureIsCurrent: true,
  // `To continue this session, run` ⏎ `qwen --resume <id>`, printed after a message only.
  scrapeExit: (text) => lastHint(text, { prefixes: ['qwen --resume '] }),
  // A bare qwen always has its pin, and a pin without a transcript means it never talked.
  correlate: () => null,
  resumable: (id, evidence: RunEvidence) => qwenTranscriptHasUser(evidence.home, evidence.cwd, id),
  conversationOf,
  stored,
  ownership: { kind: 'none', why: "qwen's live session records are not read yet" },
  attention: { file: 'events', signal: qwenSignal, conversationFromCapture: false },
  warnings: qwenWarnings,
  // `--session-id` pins a new session, `--resume`/`-r` continues one.
  probe: argvProbe('qwen', { flags: ['--session-id', '--resume', '-r'], isId: isValidId, noRecord: "qwen's transcripts name no process" }),
  history: qwenHistory,
  conversing: qwenConversing,
};
