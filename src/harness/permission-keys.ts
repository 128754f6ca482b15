// The keys that answer an agent's permission dialog, for the web page's key bar. Every client
// measured (clients/README.md) draws a list whose first, highlighted entry allows once — claude
// `❯ 1. Yes`, codex `1. Yes, proceed (y)`, gemini and copilot `1. Allow once`, opencode and
// kilo `Allow once` — so Enter allows; and each refuses with Esc (codex `No … (esc)`, claude's
// `No, and tell Claude what to do differently (esc)`). Pure data, one entry per agent, so a new
// agent must say its own.
import type { HarnessName } from './names.js';

export interface PermissionKeys {
  /** Bytes that allow the request once. */
  approve: string;
  /** Bytes that refuse it. */
  deny: string;
}

const ENTER_ESC: PermissionKeys = { approve: '\r', deny: '\x1b' };

export const PERMISSION_KEYS: Readonly<Record<HarnessName, PermissionKeys>> = {
  claude: ENTER_ESC,
  codex: ENTER_ESC,
  grok: ENTER_ESC,
  gemini: ENTER_ESC,
  opencode: ENTER_ESC,
  qwen: ENTER_ESC,
  kilo: ENTER_ESC,
  pi: ENTER_ESC,
  copilot: ENTER_ESC,
};
