import * as path from 'node:path';
import type { CorrelationContext, Harness } from '../harness.js';
import { isValidId } from '../ids.js';
import { pinnedLaunch } from '../pin.js';
import { quoteShell } from '../quote.js';
import { lastHint } from '../scrape.js';
import { listDir, readTextFile, someLine, statOrNull } from '../fs-read.js';
import { isJsonObject } from '../json-shape.js';
import { entryTimeMs, inWindow, soleCandidate, WINDOW_MS } from '../store-window.js';
import { claudeTraces } from './probe.js';
import { claudeProjectDirs, isUserRecord } from './transcript.js';
import { claudeHistory } from './history.js';
import { agentProgram } from '../probe.js';
import { claudeSignal } from '../attention.js';
import { homeFromVariable } from '../home-rules.js';
import { claudeConversing } from './conversing.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan, RunEvidence, StoredConversation } from '../types.js';

export { claudeProjectDirs, claudeSlug } from './transcript.js';

// claude: pinned with `--session-id`, captured by a SessionStart hook, resumable only once its
// transcript holds a user record.

/**
 * 8.2: the transcript `<id>.jsonl` exists and has at least one line whose JSON `type` is
 * `user` — a message, not the records a bare `/exit` can leave (see LOCAL_COMMAND).
 */
export function claudeTranscriptHasUser(home: string, cwd: string, id: string): boolean {
  if (!isValidId(id)) return false;
  return claudeProjectDirs(home, cwd).some((dir) => someLine(path.join(dir, `${id}.jsonl`), isUserRecord));
}

function settingsSuffix(namespace: string): string {
  return ` --settings ${quoteShell(path.join(namespace, 'claude-settings.json'))}`;
}

function instrument(detection: AgentDetection, input: InstrumentInput): InstrumentPlan {
  return pinnedLaunch(detection, input, { suffix: settingsSuffix(input.namespace), env: { FLEETCOM_CAPTURE_FILE: input.captureFile }, captures: true });
}

/**
 * The hook payload's `session_id`, when the text is SessionStart's JSON and the id is valid.
 * Only that hook writes the file, and claude names the event in every payload (measured on
 * 2.1.197 and 2.1.332): a payload that does not is not claude's, and says nothing of where the
 * agent is — read as one, a stray `{"session_id":…}` would move the task off its conversation.
 */
function parseCapture(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isJsonObject(value) || value.hook_event_name !== 'SessionStart') return [];
  const sessionId = value.session_id;
  return typeof sessionId === 'string' && isValidId(sessionId) ? [sessionId] : [];
}

function captureId(evidence: RunEvidence): string | null {
  if (evidence.captureFile === null) return null;
  const file = readTextFile(evidence.captureFile);
  if (file.kind !== 'text') return null;
  const [id] = parseCapture(file.text);
  return id !== undefined && claudeTranscriptHasUser(evidence.home, evidence.cwd, id) ? id : null;
}

/** Transcripts born between spawn − 30 s and the end of the run (8.5); stems as found. */
function correlate(evidence: RunEvidence, context: CorrelationContext): string | null {
  const from = evidence.spawnedAt - WINDOW_MS;
  const to = evidence.endedAt ?? context.now;
  const stems: string[] = [];
  for (const dir of claudeProjectDirs(evidence.home, evidence.cwd)) {
    for (const entry of listDir(dir)) {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
      const stats = statOrNull(path.join(dir, entry.name));
      if (stats !== null && inWindow(entryTimeMs(stats), from, to)) stems.push(entry.name.slice(0, -'.jsonl'.length));
    }
  }
  const id = soleCandidate(stems, context.excluded);
  return id !== null && claudeTranscriptHasUser(evidence.home, evidence.cwd, id) ? id : null;
}

/** 8.2: the transcript exists and holds a typed message; claude refuses `--resume` otherwise. */
function stored(home: string, cwd: string, id: string): StoredConversation {
  const candidates = claudeProjectDirs(home, cwd).map((dir) => path.join(dir, `${id}.jsonl`));
  const existing = candidates.find((file) => statOrNull(file)?.isFile());
  const shown = existing ?? candidates[0] ?? path.join(home, 'projects', `${id}.jsonl`);
  if (existing === undefined) return { found: false, path: shown, why: `no claude transcript ${shown}` };
  if (!claudeTranscriptHasUser(home, cwd, id)) return { found: false, path: shown, why: `the transcript ${shown} holds no message` };
  return { found: true, path: existing };
}

export const claude: Harness = {
  name: 'claude',
  selectors: ['--resume'],
  isId: isValidId,
  idShape: 'a lowercase 8-4-4-4-12 uuid',
  home: homeFromVariable('claude', 'CLAUDE_CONFIG_DIR', '.claude'),
  assets: [],
  instrument,
  parseCapture,
  captureId,
  captureIsCurrent: true,
  // Newer claude echoes its launch flags in the hint: `claude --model opus --resume <id>`.
  scrapeExit: (text) => lastHint(text, { prefixes: ['claude --resume '], echoedFlags: { program: 'claude', selector: ' --resume ' } }),
  correlate,
  // A Task subagent writes under its parent's session id; background workers are the hook's (8.8).
  conversationOf: (id) => ({ kind: 'own', id }),
  resumable: (id, evidence) => claudeTranscriptHasUser(evidence.home, evidence.cwd, id),
  probe: { program: (argv, dirs) => agentProgram('claude', argv, dirs), traces: claudeTraces },
  stored,
  ownership: { kind: 'claude-registry' },
  warnings: () => [],
  attention: { file: 'events', signal: claudeSignal, conversationFromCapture: false },
  history: claudeHistory,
  conversing: claudeConversing,
};
