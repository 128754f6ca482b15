import { claude } from './claude/claude.js';
import { codex } from './codex/codex.js';
import { gemini } from './gemini/gemini.js';
import { grok } from './grok/grok.js';
import { opencode } from './opencode/opencode.js';
import { qwen } from './qwen/qwen.js';
import { kilo } from './kilo/kilo.js';
import { pi } from './pi/pi.js';
import { copilot } from './copilot/copilot.js';
import type { Harness } from './harness.js';
import type { HarnessName } from './types.js';

/** Every harness, in detection order (names.ts). A new agent is one file and one entry here. */
export const HARNESSES: readonly Harness[] = [claude, codex, grok, gemini, opencode, qwen, kilo,
  pi, copilot];

export function harnessFor(name: HarnessName): Harness {
  const harness = HARNESSES.find((candidate) => candidate.name === name);
  if (harness === undefined) throw new Error(`unknown harness: ${String(name)}`);
  return harness;
}
