// The agents fleetcom knows, as plain constants: the client commands' reply checks, the
// protocol's recipe schema and the task records name them without loading any harness code.
// registry.ts holds one harness per name, and test/harness/registry.test.ts checks that both
// lists agree.

/** Every harness name, in detection order. */
export const HARNESS_NAMES = ['claude', 'codex', 'grok', 'gemini', 'opencode', 'qwen', 'kilo',
  'pi', 'copilot'] as const;
export type HarnessName = (typeof HARNESS_NAMES)[number];

/** Every variable a recipe may set to locate an agent's store (each harness's `home.vars`). */
export const AGENT_HOME_VARS = ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GROK_HOME', 'GEMINI_CLI_HOME', 'OPENCODE_DB', 'XDG_DATA_HOME', 'QWEN_HOME', 'KILO_DB',
  'PI_CODING_AGENT_DIR', 'COPILOT_HOME'] as const;
export type AgentHomeVar = (typeof AGENT_HOME_VARS)[number];
