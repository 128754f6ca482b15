import * as path from 'node:path';
import type { CorrelationContext, Harness } from '../harness.js';
import { isValidId } from '../ids.js';
import { homeFromVariable } from '../home-rules.js';
import { lastHint } from '../scrape.js';
import { listDir, statOrNull } from '../fs-read.js';
import { entryTimeMs, inWindow, soleCandidate, WINDOW_MS } from '../store-window.js';
import { argvProbe } from '../argv-probe.js';
import { grokEncodeCwd } from './store.js';
import { grokHistory } from './history.js';
import { grokConversing } from './conversing.js';
import { pinWithSessionId } from '../session-id-pin.js';
import type { RunEvidence, StoredConversation } from '../types.js';

// grok: pinned with `--session-id`, no live capture channel; sessions are directories
// `<home>/sessions/<encoded cwd>/<id>/`.

export { grokEncodeCwd } from './store.js';

/** Session directories born within ±30 s of the spawn (the seed's window, kept by 8.5). */
function correlate(evidence: RunEvidence, context: CorrelationContext): string | null {
  const dir = path.join(evidence.home, 'sessions', grokEncodeCwd(evidence.cwd));
  const from = evidence.spawnedAt - WINDOW_MS;
  const to = evidence.spawnedAt + WINDOW_MS;
  const stems: string[] = [];
  for (const entry of listDir(dir)) {
    if (!entry.isDirectory()) continue;
    const stats = statOrNull(path.join(dir, entry.name));
    if (stats !== null && inWindow(entryTimeMs(stats), from, to)) stems.push(entry.name);
  }
  return soleCandidate(stems, context.excluded);
}

function stored(home: string, cwd: string, id: string): StoredConversation {
  const dir = path.join(home, 'sessions', grokEncodeCwd(cwd), id);
  return statOrNull(dir)?.isDirectory() ? { found: true, path: dir } : { found: false, path: dir, why: `no grok session directory ${dir}` };
}

export const grok: Harness = {
  name: 'grok',
  selectors: ['--resume'],
  isId: isValidId,
  idShape: 'a lowercase 8-4-4-4-12 uuid',
  home: homeFromVariable('grok', 'GROK_HOME', '.grok'),
  assets: [],
  instrument: pinWithSessionId,
  parseCapture: () => [],
  captureId: () => null,
  scrapeExit: (text) => lastHint(text, { prefixes: ['grok -r ', 'grok --resume '] }),
  correlate,
  // No child sessions of grok are known (it is tested with a fake only).
  conversationOf: (id) => ({ kind: 'own', id }),
  // grok makes a session's directory at its first message: a pin without one never talked, and
  // `grok --resume` of it fails.
  resumable: (id, evidence: RunEvidence) => stored(evidence.home, evidence.cwd, id).found,
  probe: argvProbe('grok', { flags: ['--session-id', '--resume', '-r'], isId: isValidId, noRecord: 'grok keeps no record of a running session' }),
  stored,
  ownership: { kind: 'none', why: 'grok keeps no record of running sessions' },
  warnings: () => [],
  attention: null,
  history: grokHistory,
  conversing: grokConversing,
};
