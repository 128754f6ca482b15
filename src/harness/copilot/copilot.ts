import * as path from 'node:path';
import { claudeSignal, type SignalResult } from '../attention.js';
import { listDir, readTextFile, someLine, statOrNull } from '../fs-read.js';
import type { Harness } from '../harness.js';
import { homeFromVariable } from '../home-rules.js';
import { isValidId } from '../ids.js';
import { isJsonObject, jsonObjectOf } from '../json-shape.js';
import { pinnedLaunch } from '../pin.js';
import { namesNone, agentProgram, type AgentProcess, type ProcessTraces } from '../probe.js';
import { quoteShell } from '../quote.js';
import { lastHint } from '../scrape.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan, RunEvidence, StoredConversation } from '../types.js';
import { copilotHistory } from './history.js';
import { copilotConversing } from './conversing.js';
import { COPILOT_HOOKS, COPILOT_HOOKS_FILE, COPILOT_PLUGIN, COPILOT_PLUGIN_FILE, COPILOT_PLUGIN_MODE } from './plugin.js';

// GitHub Copilot CLI (measured on 1.0.102): pinned with `--session-id <uuid>`, captured and
// attended by claude-shaped hooks from a plugin of fleetcom's own (`--plugin-dir`), resumed
// with `copilot --resume <id>` (its hint prints `--resume=<id>`). A conversation is a
// directory `<home>/session-state/<id>/`, made at start; its `events.jsonl` is written at the
// first message. The home is COPILOT_HOME, else ~/.copilot.

/** `<home>/session-state/<id>`. */
export function copilotSessionDir(home: string, id: string): string {
  return path.join(home, 'session-state', id);
}

/** A `user.message` record in the session's events.jsonl: a conversation `--resume` opens. */
export function copilotSessionHasUser(home: string, id: string): boolean {
  if (!isValidId(id)) return false;
  return someLine(path.join(copilotSessionDir(home, id), 'events.jsonl'), (line) => jsonObjectOf(line)?.type === 'user.message');
}

function instrument(detection: AgentDetection, input: InstrumentInput): InstrumentPlan {
  return pinnedLaunch(detection, input, { suffix: ` --plugin-dir ${quoteShell(input.namespace)}`, env: { FLEETCOM_CAPTURE_FILE: input.captureFile }, captures: true });
}

/** SessionStart's `session_id`, when the capture file is that payload. */
function parseCapture(text: string): string[] {
  const payload = jsonObjectOf(text);
  return payload !== null && isValidId(payload.session_id) ? [payload.session_id] : [];
}

function captureId(evidence: RunEvidence): string | null {
  if (evidence.captureFile === null) return null;
  const file = readTextFile(evidence.captureFile);
  if (file.kind !== 'text') return null;
  const [id] = parseCapture(file.text);
  return id !== undefined && copilotSessionHasUser(evidence.home, id) ? id : null;
}

function stored(home: string, _cwd: string, id: string): StoredConversation {
  const dir = copilotSessionDir(home, id);
  if (!statOrNull(dir)?.isDirectory()) return { found: false, path: dir, why: `no copilot session directory ${dir}` };
  if (!copilotSessionHasUser(home, id)) return { found: false, path: dir, why: `the copilot session ${dir} holds no message (copilot --resume refuses it)` };
  return { found: true, path: dir };
}

const HOLD = /^inuse\.(\d+)\.hold$/;

/**
 * The `inuse.<pid>.hold` file a running copilot holds open in its session's directory; the
 * newest when several are left (one of a process that died keeps its name).
 */
function holdFile(home: string, id: string): string | null {
  const dir = copilotSessionDir(home, id);
  let best: { file: string; at: number } | null = null;
  for (const entry of listDir(dir)) {
    if (!entry.isFile() || !HOLD.test(entry.name)) continue;
    const file = path.join(dir, entry.name);
    const at = statOrNull(file)?.mtimeMs ?? 0;
    if (best === null || at > best.at) best = { file, at };
  }
  return best?.file ?? null;
}

const isHoldFile = (target: string) => target.includes(`${path.sep}session-state${path.sep}`) && HOLD.test(path.basename(target));

/**
 * A copilot started by hand: the session whose `inuse.<pid>.hold` it (its native binary, a
 * child of the npm launcher) holds open under `home`. copilot opens the next one at /clear.
 */
function traces(process: AgentProcess, home: string): ProcessTraces {
  if ('unreadable' in process.open) return namesNone(`its open files cannot be listed (${process.open.unreadable})`);
  const root = path.join(home, 'session-state') + path.sep;
  const ids = new Set<string>();
  for (const file of process.open.files) {
    if (!file.startsWith(root) || !isHoldFile(file)) continue;
    const id = path.basename(path.dirname(file));
    if (isValidId(id)) ids.add(id);
  }
  const [only, ...more] = ids;
  if (only === undefined) return namesNone(`it holds no session open under ${root} (copilot makes one at start; a folder-trust question may still wait)`);
  if (more.length > 0) return namesNone(`it holds ${ids.size} sessions open (${[...ids].join(', ')})`);
  return { conversation: { kind: 'id', id: only, from: `copilot session lock ${root}${only}` }, attention: null };
}

/** doctor: hooks switched off in copilot's own settings leave a task without capture or attention. */
function warnings(home: string): string[] {
  const file = path.join(home, 'settings.json');
  const read = readTextFile(file);
  if (read.kind !== 'text') return [];
  const settings = jsonObjectOf(read.text);
  return isJsonObject(settings) && settings.disableAllHooks === true
    ? [`${file} sets disableAllHooks: fleetcom hears no copilot conversation change or attention until the exit hint`]
    : [];
}

/**
 * One hook payload of the events file. copilot sends claude's payloads, with two differences
 * (measured on 1.0.102): its `Notification` names the session `sessionId`, and a subagent's
 * `UserPromptSubmit` and `Stop` carry the subagent's own `agent_id` as `session_id`, with
 * `parent_agent_id`: never the task's conversation, so never its attention.
 */
export function copilotSignal(payload: unknown): SignalResult {
  if (!isJsonObject(payload)) return claudeSignal(payload);
  if (payload.agent_id !== undefined || payload.parent_agent_id !== undefined) {
    return { kind: 'ignored', why: `${String(payload.hook_event_name)} of a subagent (agent_id ${JSON.stringify(payload.agent_id ?? null)})` };
  }
  if (payload.session_id === undefined && typeof payload.sessionId === 'string') return claudeSignal({ ...payload, session_id: payload.sessionId });
  return claudeSignal(payload);
}

export const copilot: Harness = {
  name: 'copilot',
  // `--resume <id>` opens the session and fails (exit 1) when it is gone, where `--session-id`
  // would start an empty one under that id.
  selectors: ['--resume'],
  isId: isValidId,
  idShape: 'a lowercase 8-4-4-4-12 uuid',
  home: homeFromVariable('copilot', 'COPILOT_HOME', '.copilot'),
  assets: [
    { file: COPILOT_PLUGIN_FILE, mode: COPILOT_PLUGIN_MODE, content: COPILOT_PLUGIN },
    { file: COPILOT_HOOKS_FILE, mode: COPILOT_PLUGIN_MODE, content: COPILOT_HOOKS },
  ],
  instrument,
  parseCapture,
  captureId,
  // The summary box at exit: `Resume     copilot --resume=<id>`.
  scrapeExit: (text) => lastHint(text, { prefixes: ['copilot --resume=', 'copilot --resume '] }),
  // Every instrumented launch is pinned or names its session: correlation is never needed.
  correlate: () => null,
  // A subagent (its `task` tool, measured) runs inside the session: no SessionStart, no
  // session directory of its own; its hooks name its agent_id and are skipped (copilotSignal).
  conversationOf: (id) => ({ kind: 'own', id }),
  resumable: (id, evidence) => copilotSessionHasUser(evidence.home, id),
  stored,
  ownership: { kind: 'open-file', file: holdFile, looksLike: isHoldFile },
  attention: { file: 'events', signal: copilotSignal, conversationFromCapture: false },
  warnings,
  history: copilotHistory,
  conversing: copilotConversing,
  probe: { program: (argv, dirs) => agentProgram('copilot', argv, dirs), traces },
};
