import * as path from 'node:path';
import type { CorrelationContext, Harness } from './harness.js';
import { freshId } from './ids.js';
import { quoteShell } from './quote.js';
import { lastHint } from './scrape.js';
import { listDir, statOrNull } from './fs-read.js';
import { entryTimeMs, inWindow, soleCandidate, WINDOW_MS } from './store-window.js';
import { grokTraces } from './grok-probe.js';
import { agentArgs, agentProgram } from './probe.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan, RunEvidence } from './types.js';

// grok: pinned with `--session-id`, no live capture channel; sessions are directories
// `<home>/sessions/<encoded cwd>/<id>/`.

/** `%` → `%25`, then `/` → `%2F`; everything else literal (`/a%b` → `%2Fa%25b`). */
export function grokEncodeCwd(cwd: string): string {
  return cwd.replaceAll('%', '%25').replaceAll('/', '%2F');
}

function instrument(detection: AgentDetection, input: InstrumentInput): InstrumentPlan {
  if (detection.form === 'resume') return { suffix: '', env: {}, pinnedId: detection.targetId };
  const pinnedId = freshId(input.newId);
  return { suffix: ` --session-id ${quoteShell(pinnedId)}`, env: {}, pinnedId };
}

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

export const grok: Harness = {
  name: 'grok',
  selector: '--resume',
  homeVar: 'GROK_HOME',
  homeDir: '.grok',
  instrument,
  parseCapture: () => [],
  captureId: () => null,
  scrapeExit: (text) => lastHint(text, { prefixes: ['grok -r ', 'grok --resume '] }),
  correlate,
  resumable: () => true,
  probe: { program: (argv, dirs) => agentProgram('grok', argv, dirs), traces: (process) => grokTraces(agentArgs('grok', process.argv)) },
};
