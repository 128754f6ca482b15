import { pinnedLaunch } from './pin.js';
import type { AgentDetection, InstrumentInput, InstrumentPlan } from './types.js';

// The agents that take a caller's id for a new conversation (`--session-id <uuid>`: grok,
// gemini) and have no live channel of fleetcom's own: the pin alone (harness/pin.ts; claude,
// pi, copilot and qwen add their channels to it). A v4 uuid: gemini names its session file
// by the first 8 characters (random in a v4), and qwen accepts only versions 1 to 5.

export function pinWithSessionId(detection: AgentDetection, input: InstrumentInput): InstrumentPlan {
  return pinnedLaunch(detection, input);
}
