import { freshId } from './ids.js';
import { quoteShell } from './quote.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan } from './types.js';

// The agents that take a caller's id for a new conversation (`--session-id <uuid>`: grok,
// gemini, qwen) are instrumented alike: a bare launch gets a fresh v4 id, a resume keeps the
// id it names. Neither has a live channel of fleetcom's own.

export function pinWithSessionId(detection: AgentDetection, input: InstrumentInput): InstrumentPlan {
  if (detection.form === 'resume') return { suffix: '', env: {}, pinnedId: detection.targetId, captures: false };
  // A v4 uuid: gemini names its session file by the first 8 characters (random in a v4), and
  // qwen accepts only versions 1 to 5.
  const pinnedId = freshId(input.newId);
  return { suffix: ` --session-id ${quoteShell(pinnedId)}`, env: {}, pinnedId, captures: false };
}
