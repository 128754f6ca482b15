// `fleetcom mcp`: the stdio MCP server (src/mcp/), whose tools run this CLI's own command lines
// in this process; `--config claude|codex|gemini` prints what that agent's settings take to
// start it. Loaded only for `mcp` (a chunk of its own with the SDK: scripts/bundle.mjs).
import { realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { cliPaths } from '../../fleet/runtime-files.js';
import { clientConfig, CONFIG_AGENTS, type ConfigAgent, type Launch } from '../../mcp/client-config.js';
import type { CommandLine } from '../../mcp/captured.js';
import { serveStdio } from '../../mcp/server.js';
import { splitHost } from '../../remote/host-argv.js';
import { reporting } from '../../report.js';
import { VERSION } from '../version.js';

/**
 * One command line as the entry runs it (client.ts): --host or FLEETCOM_HOST sends it to that
 * host's fleetcom, errors become their message on stderr and their exit code.
 */
export function hostAware(local: CommandLine): CommandLine {
  return (argv, deps) =>
    reporting(async () => {
      const target = splitHost(argv, deps.env.FLEETCOM_HOST);
      if (target.host !== null) return (await import('../hosts/remote.js')).runOnHost(target.host, target.argv, deps);
      return local(target.argv, deps);
    }, deps);
}

/** `fleetcom mcp` on PATH when it is this fleetcom, else this Node and this bin by path. */
export function launchOf(env: Deps['env']): Launch {
  const { node, script } = cliPaths();
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return null;
    }
  };
  const mine = real(script);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    if (real(join(dir, 'fleetcom')) === mine) return { command: 'fleetcom', args: ['mcp'] };
  }
  return { command: node, args: [script, 'mcp'] };
}

export async function runMcp(opts: { config?: string }, deps: Deps, commandLine: CommandLine): Promise<number> {
  if (opts.config !== undefined) {
    if (!(CONFIG_AGENTS as readonly string[]).includes(opts.config)) throw new UsageError(`--config ${opts.config}: expected ${CONFIG_AGENTS.join(', ')}`);
    const { settings, howTo } = clientConfig(opts.config as ConfigAgent, launchOf(deps.env));
    deps.stdout.write(settings);
    deps.stderr.write(`${howTo}\n`);
    return 0;
  }
  await serveStdio(deps, { run: hostAware(commandLine), version: VERSION });
  return 0;
}
