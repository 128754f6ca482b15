// `fleetcom mcp --config claude|codex|gemini`: what each agent's own settings take to start
// this server, in the form its current release reads (checked offline against the real clients,
// clients/README.md). stdout gets the settings themselves (JSON or TOML, usable as they are);
// the line saying where they go, and the agent's own command that would add them, is for stderr.
import { quoteShell, tomlBasicString } from '../harness/quote.js';

export const CONFIG_AGENTS = ['claude', 'codex', 'gemini'] as const;
export type ConfigAgent = (typeof CONFIG_AGENTS)[number];

/** How an agent starts this server: `fleetcom mcp` when that is this fleetcom, else its Node and bin by path. */
export interface Launch {
  command: string;
  args: string[];
}

export interface ClientConfig {
  /** The settings, for stdout. */
  settings: string;
  /** Where they go and the agent's own command adding them, for stderr. */
  howTo: string;
}

/** The server's name in the agent's settings: claude names its tools mcp__fleetcom__<tool>. */
export const SERVER_NAME = 'fleetcom';

const shellLine = (words: readonly string[]) => words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : quoteShell(w))).join(' ');

export function clientConfig(agent: ConfigAgent, launch: Launch): ClientConfig {
  const argv = [launch.command, ...launch.args];
  switch (agent) {
    case 'claude':
      return {
        // .mcp.json's form; `claude --mcp-config FILE` reads the same.
        settings: `${JSON.stringify({ mcpServers: { [SERVER_NAME]: { type: 'stdio', command: launch.command, args: launch.args } } }, null, 2)}\n`,
        howTo: [
          "claude: this is a project's .mcp.json (claude asks you to approve it at its next start there) or a file for claude --mcp-config FILE; to add it for all your projects instead:",
          `  ${shellLine(['claude', 'mcp', 'add', '--scope', 'user', SERVER_NAME, '--', ...argv])}`,
          `claude asks before each tool call unless allowed: claude --allowedTools mcp__${SERVER_NAME}, or "permissions": {"allow": ["mcp__${SERVER_NAME}"]} in .claude/settings.json`,
        ].join('\n'),
      };
    case 'codex':
      return {
        settings: [`[mcp_servers.${SERVER_NAME}]`, `command = ${tomlBasicString(launch.command)}`, `args = [${launch.args.map(tomlBasicString).join(', ')}]`, ''].join('\n'),
        howTo: [
          'codex: add this to ~/.codex/config.toml (or $CODEX_HOME/config.toml), or run:',
          `  ${shellLine(['codex', 'mcp', 'add', SERVER_NAME, '--', ...argv])}`,
        ].join('\n'),
      };
    case 'gemini':
      return {
        settings: `${JSON.stringify({ mcpServers: { [SERVER_NAME]: { command: launch.command, args: launch.args } } }, null, 2)}\n`,
        howTo: [
          'gemini: merge this into ~/.gemini/settings.json (or a project\'s .gemini/settings.json), or run:',
          `  ${shellLine(['gemini', 'mcp', 'add', '--scope', 'user', SERVER_NAME, ...argv])}`,
        ].join('\n'),
      };
  }
}
