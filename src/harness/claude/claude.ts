import * as path from 'node:path';
import type { CorrelationContext, Harness } from '../harness.js';
import { isValidId } from '../ids.js';
import { pinnedLaunch } from '../pin.js';
import { quoteShell } from '../quote.js';
import { lastHint } from '../scrape.js';
import { listDir, readTextFile, someLine, statOrNull } from '../fs-read.js';
import { fieldProblem, isJsonObject } from '../json-shape.js';
import { entryTimeMs, inWindow, soleCandidate, WINDOW_MS } from '../store-window.js';
import { claudeTraces } from './probe.js';
import { agentProgram } from '../probe.js';
import { claudeSignal } from '../attention.js';
import { homeFromVariable } from '../home-rules.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan, RunEvidence, StoredConversation } from '../types.js';

// claude: pinned with `--session-id`, captured by a SessionStart hook, resumable only once its
// transcript holds a user record.

/** claude caps a project directory name at this many UTF-16 units, then appends a hash. */
const SLUG_CAP = 200;

/** A part of a message's content as claude writes it: `{"type": "text", "text": "…"}` and others. */
interface ContentPart {
  type: string;
  text?: string;
}

const isContentPart = (part: unknown): part is ContentPart => fieldProblem(part, { type: 'string', text: 'string?' }) === null;

/** The message content claude writes (a string or a list of parts); null for any other shape. */
function messageContent(message: unknown): string | ContentPart[] | null {
  if (!isJsonObject(message)) return null;
  const content = message.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) && content.every(isContentPart) ? content : null;
}

/**
 * What claude records for a local slash command (`/exit`, `/clear`) typed before any message:
 * user records that hold only these wrappers. A conversation of nothing else cannot be
 * resumed into anything (measured on 2.1.197: an `/exit` sometimes leaves three of them).
 */
const LOCAL_COMMAND = /<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>[\s\S]*?<\/\1>/g;

function isTypedText(text: string): boolean {
  return text.replace(LOCAL_COMMAND, '').trim() !== '';
}

/** `<home>/projects/<slug>`: every UTF-16 unit of the cwd that is not an ASCII letter or digit → `-` (8.1). */
export function claudeSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * The project directories that may hold this cwd's transcripts. Up to 200 characters the slug
 * is exact. Longer, claude keeps 200 and appends a hash we do not reproduce, so every
 * directory carrying that prefix is a possibility (more candidates make correlation ambiguous
 * rather than wrong); the untruncated slug of older versions is included too.
 */
export function claudeProjectDirs(home: string, cwd: string): string[] {
  const projects = path.join(home, 'projects');
  const slug = claudeSlug(cwd);
  if (slug.length <= SLUG_CAP) return [path.join(projects, slug)];
  const prefix = `${slug.slice(0, SLUG_CAP)}-`;
  return listDir(projects)
    .filter((entry) => entry.isDirectory() && (entry.name === slug || entry.name.startsWith(prefix)))
    .map((entry) => path.join(projects, entry.name))
    .sort();
}

/** A `user` record the person wrote: not claude's meta record, not only local-command wrappers. */
function isUserRecord(line: string): boolean {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return false;
  }
  // A user record without `message` still counts (8.2); a non-boolean isMeta is not claude's.
  if (fieldProblem(record, { type: 'string', isMeta: 'boolean?' }) !== null) return false;
  const { type, isMeta, message } = record as { type: string; isMeta?: boolean; message?: unknown };
  if (type !== 'user' || isMeta === true) return false;
  // Any other message shape counts as a message (8.2 as written).
  const content = messageContent(message);
  if (content === null) return true;
  if (typeof content === 'string') return isTypedText(content);
  return content.some((part) => part.type !== 'text' || isTypedText(part.text ?? ''));
}

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

/** The hook payload's `session_id`, when the text is that JSON and the id is valid. */
function parseCapture(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const sessionId = isJsonObject(value) ? value.session_id : undefined;
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
};
