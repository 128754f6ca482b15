import * as path from 'node:path';
import { argvProbe } from '../argv-probe.js';
import type { SignalResult } from '../attention.js';
import { listDir, readTextFile, someLine } from '../fs-read.js';
import type { Harness } from '../harness.js';
import { homeFromVariable } from '../home-rules.js';
import { isValidId } from '../ids.js';
import { fieldProblem, jsonObjectOf } from '../json-shape.js';
import { pinnedLaunch } from '../pin.js';
import { quoteShell } from '../quote.js';
import { lastHint } from '../scrape.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan, RunEvidence, StoredConversation } from '../types.js';
import { PI_EXTENSION, PI_EXTENSION_FILE, PI_EXTENSION_MODE } from './extension.js';
import { piHistory } from './history.js';
import { piConversing } from './conversing.js';
import { piProjectDir } from './project-dir.js';

export { piProjectDir };

// pi (measured on 1.6.0): pinned with `--session-id <uuid>`, captured and attended by an
// extension of fleetcom's own (`-e`), resumed with `pi --session <id>` (its exit hint). A
// conversation is a file `<home>/sessions/--<cwd>--/<ISO time>_<id>.jsonl`, written at the
// first message; the home is PI_CODING_AGENT_DIR, else ~/.pi/agent.

/** The session files of `id` in `cwd`'s project directory (one, unless a copy was made by hand). */
export function piSessionFiles(home: string, cwd: string, id: string): string[] {
  if (!isValidId(id)) return [];
  const dir = path.join(home, 'sessions', piProjectDir(cwd));
  const tail = `_${id}.jsonl`;
  return listDir(dir)
    .filter((entry) => entry.isFile() && entry.name.endsWith(tail))
    .map((entry) => path.join(dir, entry.name))
    .sort();
}

/** A `message` record whose `message.role` is `user`: what pi writes for a typed message. */
function isUserMessage(line: string): boolean {
  const record = jsonObjectOf(line);
  if (record === null || record.type !== 'message') return false;
  const message = record.message;
  return typeof message === 'object' && message !== null && (message as { role?: unknown }).role === 'user';
}

/** The first line is pi's header naming this id; some later line is a user message. */
function holdsConversation(file: string, id: string): boolean {
  let header = true;
  let ownHeader = false;
  return someLine(file, (line) => {
    if (header) {
      header = false;
      const record = jsonObjectOf(line);
      ownHeader = record !== null && record.type === 'session' && record.id === id;
      // A file whose header names another id is not this conversation: stop at once.
      return !ownHeader;
    }
    return isUserMessage(line);
  }) && ownHeader;
}

export function piSessionHasUser(home: string, cwd: string, id: string): boolean {
  return piSessionFiles(home, cwd, id).some((file) => holdsConversation(file, id));
}

function instrument(detection: AgentDetection, input: InstrumentInput): InstrumentPlan {
  const extension = ` -e ${quoteShell(path.join(input.namespace, PI_EXTENSION_FILE))}`;
  return pinnedLaunch(detection, input, { suffix: extension, env: { FLEETCOM_CAPTURE_FILE: input.captureFile }, captures: true });
}

/** The ids of the extension's session_start and turn lines, oldest first. */
function parseCapture(text: string): string[] {
  const ids: string[] = [];
  for (const line of text.split('\n')) {
    const record = jsonObjectOf(line);
    if (record !== null && (record.type === 'session_start' || record.type === 'turn') && isValidId(record.id)) ids.push(record.id);
  }
  return ids;
}

/** The pane's current session (the last session_start or turn), once its file holds a message. */
function captureId(evidence: RunEvidence): string | null {
  if (evidence.captureFile === null) return null;
  const file = readTextFile(evidence.captureFile);
  if (file.kind !== 'text') return null;
  const id = parseCapture(file.text).at(-1);
  return id !== undefined && piSessionHasUser(evidence.home, evidence.cwd, id) ? id : null;
}

function stored(home: string, cwd: string, id: string): StoredConversation {
  const [file] = piSessionFiles(home, cwd, id);
  const shown = file ?? path.join(home, 'sessions', piProjectDir(cwd), `<time>_${id}.jsonl`);
  if (file === undefined) return { found: false, path: shown, why: `no pi session file ${shown}` };
  if (!piSessionHasUser(home, cwd, id)) return { found: false, path: file, why: `the pi session file ${file} holds no message` };
  return { found: true, path: file };
}

/**
 * doctor: a `sessionDir` in pi's settings moves every session out of `<home>/sessions`, where
 * fleetcom looks (PI_CODING_AGENT_SESSION_DIR does too; fleetcom does not read that variable).
 */
function warnings(home: string): string[] {
  const file = path.join(home, 'settings.json');
  const read = readTextFile(file);
  if (read.kind !== 'text') return [];
  const settings = jsonObjectOf(read.text);
  if (settings === null || settings.sessionDir === undefined) return [];
  return [`${file} sets sessionDir: pi keeps its sessions there, where fleetcom does not look; save and doctor cannot see them (remove it to keep them under ${path.join(home, 'sessions')})`];
}

const PI_EVENT = { type: 'string', sessionId: 'string', reason: 'string?' } as const;

/** One line of the extension's events file. */
export function piSignal(payload: unknown): SignalResult {
  const problem = fieldProblem(payload, PI_EVENT);
  if (problem !== null) return { kind: 'ignored', why: `not a pi extension event (${problem})` };
  const { type: event, sessionId } = payload as { type: string; sessionId: string };
  if (!isValidId(sessionId)) return { kind: 'ignored', why: `${event}: sessionId is not a valid id` };
  const base = { event, sessionId, message: null, starts: false };
  switch (event) {
    case 'session_start':
      return { kind: 'signal', signal: { ...base, attention: 'waiting', starts: true } };
    case 'agent_start':
      return { kind: 'signal', signal: { ...base, attention: 'working' } };
    case 'agent_settled':
      return { kind: 'signal', signal: { ...base, attention: 'waiting' } };
    case 'session_shutdown':
      // A /new, /resume or /fork shuts the old session down before the next one starts.
      return (payload as { reason?: string }).reason === 'quit'
        ? { kind: 'signal', signal: { ...base, attention: null } }
        : { kind: 'ignored', why: `session_shutdown for ${String((payload as { reason?: string }).reason)}: another session follows` };
    default:
      return { kind: 'ignored', why: `${event} carries no attention` };
  }
}

export const pi: Harness = {
  name: 'pi',
  // The hint's spelling: `pi --session <id>` opens that session and fails (exit 1) when it is
  // gone, where `--session-id` would silently start an empty one under the old id.
  selectors: ['--session'],
  isId: isValidId,
  idShape: 'a lowercase 8-4-4-4-12 uuid',
  home: homeFromVariable('pi', 'PI_CODING_AGENT_DIR', path.join('.pi', 'agent')),
  assets: [{ file: PI_EXTENSION_FILE, mode: PI_EXTENSION_MODE, content: PI_EXTENSION }],
  instrument,
  parseCapture,
  captureId,
  // `--session-dir <dir>` is echoed before `--session` when the sessions live elsewhere.
  scrapeExit: (text) => lastHint(text, { prefixes: ['pi --session '], echoedFlags: { program: 'pi', selector: ' --session ' } }),
  // Every instrumented launch is pinned or names its session: correlation is never needed.
  correlate: () => null,
  // pi has no subagents of its own; a /fork is a new conversation of the pane, which its
  // session_start and hint name.
  conversationOf: (id) => ({ kind: 'own', id }),
  resumable: (id, evidence) => piSessionHasUser(evidence.home, evidence.cwd, id),
  stored,
  ownership: { kind: 'none', why: 'pi keeps no record of which process holds a session' },
  attention: { file: 'events', signal: piSignal, conversationFromCapture: false },
  warnings,
  history: piHistory,
  conversing: piConversing(piSessionFiles),
  // Started by hand it runs without fleetcom's extension: only its argv names its session.
  probe: argvProbe('pi', { flags: ['--session-id', '--session'], isId: isValidId, noRecord: 'pi keeps no record of a running session' }),
};
