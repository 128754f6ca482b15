import { freshId } from './ids.js';
import { quoteShell } from './quote.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan } from './types.js';

// The launch every agent that takes `--session-id <uuid>` shares (claude, grok, gemini, qwen, pi, copilot):
// a bare command gets a fresh id of fleetcom's own, so the conversation is known before the
// agent writes anything; a resume form already names its conversation. `extra` is what the
// agent's own channels add after the pin (a settings file, an extension, a plugin directory).

export interface PinExtra {
  /** Appended after the pin (resume forms get it alone); empty or starting with a space. */
  suffix: string;
  env: Record<string, string>;
  /** Whether the extra writes the capture file. */
  captures: boolean;
}

const NONE: PinExtra = { suffix: '', env: {}, captures: false };

export function pinnedLaunch(detection: AgentDetection, input: Pick<InstrumentInput, 'newId'>, extra: PinExtra = NONE): InstrumentPlan {
  if (detection.form === 'resume') return { suffix: extra.suffix, env: extra.env, pinnedId: detection.targetId, captures: extra.captures };
  const pinnedId = freshId(input.newId);
  return { suffix: ` --session-id ${quoteShell(pinnedId)}${extra.suffix}`, env: extra.env, pinnedId, captures: extra.captures };
}
