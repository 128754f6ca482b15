import { detect } from './detect.js';
import { quoteShell } from './quote.js';
import { harnessFor } from './registry.js';
import type { AgentDetection } from './types.js';

/** `<program word as typed> <selector> '<id>'`. Throws on an invalid id: it is never interpolated. */
export function resumeCommand(detection: AgentDetection, id: string): string {
  const harness = harnessFor(detection.harness);
  if (!harness.isId(id)) throw new Error(`refusing to build a resume command for an invalid id: ${JSON.stringify(id)}`);
  return `${detection.program} ${harness.selectors[0]} ${quoteShell(id)}`;
}

/** What a save or rerun runs: the canonical resume command, or `command` unchanged when it is opaque or the id is missing or invalid. */
export function rewriteCommand(command: string, id: string | null): string {
  const detection = detect(command);
  if (detection.form === 'opaque' || id === null || !harnessFor(detection.harness).isId(id)) return command;
  return resumeCommand(detection, id);
}
