// What each agent's settings take to start `fleetcom mcp`, in the form its release reads.
import { describe, expect, it } from 'vitest';
import { clientConfig } from '../../src/mcp/client-config.js';

const byPath = { command: '/opt/node 22/bin/node', args: ['/src/fleet"com/dist/cli.cjs', 'mcp'] };

describe('clientConfig', () => {
  it("claude: .mcp.json's form (and --mcp-config's), and claude mcp add quoted for a shell", () => {
    const c = clientConfig('claude', byPath);
    expect(JSON.parse(c.settings)).toEqual({ mcpServers: { fleetcom: { type: 'stdio', command: '/opt/node 22/bin/node', args: ['/src/fleet"com/dist/cli.cjs', 'mcp'] } } });
    expect(c.howTo).toContain(`claude mcp add --scope user fleetcom -- '/opt/node 22/bin/node' '/src/fleet"com/dist/cli.cjs' mcp`);
    expect(c.howTo).toContain('mcp__fleetcom');
  });

  it("codex: config.toml's [mcp_servers.fleetcom] with TOML strings", () => {
    const c = clientConfig('codex', byPath);
    expect(c.settings).toBe('[mcp_servers.fleetcom]\ncommand = "/opt/node 22/bin/node"\nargs = ["/src/fleet\\"com/dist/cli.cjs", "mcp"]\n');
    expect(c.howTo).toContain("codex mcp add fleetcom -- '/opt/node 22/bin/node'");
  });

  it("gemini: settings.json's mcpServers", () => {
    const c = clientConfig('gemini', { command: 'fleetcom', args: ['mcp'] });
    expect(JSON.parse(c.settings)).toEqual({ mcpServers: { fleetcom: { command: 'fleetcom', args: ['mcp'] } } });
    expect(c.howTo).toContain('gemini mcp add --scope user fleetcom fleetcom mcp');
  });
});
