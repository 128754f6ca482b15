// `fleetcom mcp`: a stdio MCP server whose tools are the CLI's own command lines run in this
// process with --json (tools.ts). stdout is the protocol: the commands print into buffers, and
// the server's own lines (one per call) go to stderr. It serves until its client closes stdin.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Deps } from '../deps.js';
import { answerOf, commandWords, failure, runAnswer, type ToolAnswer } from './answer.js';
import { runCaptured, type Captured, type CommandLine } from './captured.js';
import { ARGV, CALL_DEADLINE_MS, DESCRIPTIONS, INPUTS, MAX_WAIT_SECONDS, promptArgv, stdinWord, type ToolInput, type ToolName } from './tools.js';

export interface ServeOptions {
  /** The CLI's entry for one command line (commands/program.ts's, with --host). */
  run: CommandLine;
  version: string;
  /** Each call's bound (CALL_DEADLINE_MS; tests make it shorter). */
  deadlineMs?: number;
}

/** The tools' handlers, apart from the protocol: what a call of each answers. */
export function toolHandlers(deps: Deps, opts: ServeOptions): { [T in ToolName]: (input: ToolInput<T>) => Promise<ToolAnswer> } {
  const deadlineMs = opts.deadlineMs ?? CALL_DEADLINE_MS;
  const base = { env: deps.env, cwd: deps.cwd, now: deps.now };
  const call = async (argv: string[], deadline = deadlineMs): Promise<Captured> => {
    const run = await runCaptured(opts.run, argv, base, deadline);
    deps.stderr.write(`fleetcom mcp: ${commandWords(argv)} → ${run.exitCode === null ? 'no answer' : `exit ${run.exitCode}`} in ${run.ms} ms\n`);
    return run;
  };
  const refused = (argv: string[]): ToolAnswer => ({
    content: [{ type: 'text', text: `${commandWords(argv)}: a lone '-' means standard input to fleetcom, and this server's standard input is the protocol; say it in other words` }],
    isError: true,
  });
  const plain = async (argv: string[]) => (stdinWord(argv) ? refused(argv) : answerOf(await call(argv), deadlineMs));
  return {
    ls: (input) => plain(ARGV.ls(input)),
    send: (input) => plain(ARGV.send(input)),
    wait: (input) => plain(ARGV.wait(input)),
    output: (input) => plain(ARGV.output(input)),
    history: (input) => plain(ARGV.history(input)),
    run: async (input) => {
      const argv = ARGV.run(input);
      const first = promptArgv(input, '0');
      if (stdinWord(argv)) return refused(argv);
      if (first !== null && stdinWord(first)) return refused(first);
      const started = await call(argv);
      const id = started.exitCode === 0 ? /^(\d+)\n?$/.exec(started.stdout)?.[1] : undefined;
      if (id === undefined) return failure(started, deadlineMs);
      // The first message gets what is left of this call's deadline, less time to answer.
      const left = Math.floor((deadlineMs - started.ms) / 1000) - 5;
      const asked = Math.min(input.promptTimeoutSeconds ?? MAX_WAIT_SECONDS, MAX_WAIT_SECONDS, left);
      const prompt = promptArgv({ ...input, promptTimeoutSeconds: asked }, id);
      if (prompt === null) return runAnswer(Number(id), null, deadlineMs, null);
      if (asked <= 0) return runAnswer(Number(id), null, deadlineMs, `task ${id} started; no time was left in this call for its first message: send it`);
      return runAnswer(Number(id), await call(prompt, deadlineMs - started.ms), deadlineMs, null);
    },
  };
}

export function buildServer(deps: Deps, opts: ServeOptions): McpServer {
  const server = new McpServer({ name: 'fleetcom', version: opts.version });
  const handlers = toolHandlers(deps, opts);
  const about = <T extends ToolName>(name: T) => ({ description: DESCRIPTIONS[name], inputSchema: INPUTS[name] });
  server.registerTool('ls', about('ls'), (input) => handlers.ls(input));
  server.registerTool('run', about('run'), (input) => handlers.run(input));
  server.registerTool('send', about('send'), (input) => handlers.send(input));
  server.registerTool('wait', about('wait'), (input) => handlers.wait(input));
  server.registerTool('output', about('output'), (input) => handlers.output(input));
  server.registerTool('history', about('history'), (input) => handlers.history(input));
  return server;
}

/** Serves on stdin/stdout until the client closes stdin (or stdout); resolves then. */
export async function serveStdio(deps: Deps, opts: ServeOptions): Promise<void> {
  const server = buildServer(deps, opts);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  const close = () => void server.close().catch(() => {});
  // The SDK listens for data only: its client going away ends the server here.
  process.stdin.once('end', close).once('close', close);
  process.stdout.on('error', close);
  await server.connect(transport);
  deps.stderr.write(`fleetcom mcp: serving ${Object.keys(INPUTS).join(', ')} on stdio\n`);
  await closed;
}
