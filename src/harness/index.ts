// Public API of the resume core. Everything here is pure or reads only the roots it is given:
// no process.env, os.homedir() or clock inside.
import { harnessFor } from './registry.js';
import type { HarnessName, InstrumentInput, InstrumentPlan, RunEvidence } from './types.js';

export type * from './types.js';
export type { HistoryEntry, HistoryFile, HistoryMatch, HistoryRead, HistoryReader, HistoryScope, HistorySearch, HistorySkip } from './history.js';
export type { AttentionRule, CorrelationContext, Harness, HomeRule, NamespaceAsset, OwnershipProbe } from './harness.js';

export { isValidId, v7TimeMs } from './ids.js';
export { detect, detectWith, OPAQUE_REASONS, programBasename, splitWords } from './detect.js';
export { quoteShell, tomlBasicString } from './quote.js';
export { classifyNotifyValue, codexProfileName, codexRouteFromText, readCodexRoute } from './codex/route.js';
export { homeVarsToKeep, resolveHome } from './home.js';
export { AGENT_HOME_VARS, HARNESS_NAMES } from './names.js';
export { resolveId } from './precedence.js';
export { resumeCommand, rewriteCommand } from './resume-command.js';
export { HARNESSES, harnessFor } from './registry.js';
export { claudeProjectDirs, claudeSlug, claudeTranscriptHasUser } from './claude/claude.js';
export { parseRegistryRecord, registryDir, registryFile, registryNameProblem, type RegistryRecord } from './claude/registry.js';
export { CLAUDE_PARENT_MARKERS, isParentMarker, parentMarkersIn } from './claude/parent.js';
export { findRollout, rolloutId, threadOfRollout, type ThreadKind } from './codex/rollouts.js';
export { conversationOf, rebindResume, type Rebinding } from './conversation-of.js';
export { grokEncodeCwd } from './grok/grok.js';
export { geminiCleanupWarning, geminiTitleWarning, geminiProjectHash, geminiSessionFiles, geminiSessionHasUser } from './gemini/gemini.js';
export { isOpencodeId, opencodeHome, opencodeSignal } from './opencode/opencode.js';
export { kiloHome } from './kilo/kilo.js';
export { qwenTranscriptHasUser } from './qwen/qwen.js';
export { qwenProjectDir, qwenTranscript } from './qwen/store.js';
export { OPENCODE_PLUGIN, OPENCODE_PLUGIN_FILE, OPENCODE_RESTART_BYTES } from './opencode/plugin.js';
export { CAPTURE_RESTART_BYTES, ENSURE_CAPTURE_DIR, EVENTS_HOOK } from './events-hook.js';
export { piProjectDir, piSessionFiles, piSessionHasUser, piSignal } from './pi/pi.js';
export { copilotSessionDir, copilotSessionHasUser, copilotSignal } from './copilot/copilot.js';
export { readSqliteTable, type SqlValue, type TableRead } from './sqlite-read.js';
export { plainText } from './scrape.js';
export { historyFileOf, readHeadTail, snippetOf, streamLines } from './history-read.js';
export { entryTimeMs, utcDateFolders, WINDOW_MS } from './store-window.js';
export { storedConversation, type StoredConversation } from './conversation.js';
export { normalizeMessage, sameMessage, TEXT_MAX, type ComposerRead, type Conversing, type StoredTurn, type StoredTurns, type TurnMark } from './conversing.js';

/** Contract section 4: the suffix, env pairs and pinned id for one spawn. */
export function instrument(input: InstrumentInput): InstrumentPlan {
  return harnessFor(input.detection.harness).instrument(input.detection, input);
}

/** Channel 2 for one run: read its capture file now and apply the 8.2/8.3 file checks. */
export function captureId(evidence: RunEvidence, now: number): string | null {
  return harnessFor(evidence.harness).captureId(evidence, now);
}

/** Channel 1: the last valid exit hint in retained text. */
export function scrapeExit(harness: HarnessName, text: string): string | null {
  return harnessFor(harness).scrapeExit(text);
}
export {
  applySignal, claudeSignal, codexSignal, needsYouOrder, nextNeedingYou, NO_ATTENTION, noSignal, titleStep, workingFromOutput, worthNotifying,
  type Attending, type Attention, type AttentionSignal, type AttentionState, type SignalResult, type Step, type TitleReading, type TitleRule,
} from './attention.js';
export {
  agentArgs, agentProgram,
  type AgentProbe, type AgentProcess, type HeldConversation, type OpenFiles, type ProcessTraces,
} from './probe.js';
