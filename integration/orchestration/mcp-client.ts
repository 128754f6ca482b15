// An MCP client of the SDK talking to the built `fleetcom mcp` over stdio, as an agent would:
// the server a child process with the sandbox's environment, its stderr kept for the tests.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { onTestFinished } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/sandbox.js';

export interface McpCall {
  /** The text blocks of the answer. */
  texts: string[];
  /** The first block parsed as JSON (the command's document), or undefined. */
  json: unknown;
  isError: boolean;
  ms: number;
}

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  call(tool: string, args: Record<string, unknown>, timeoutMs?: number): Promise<McpCall>;
  close(): Promise<void>;
}

export async function connectMcp(sb: Sandbox, opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp'],
    env: { ...sb.env, ...opts.env },
    cwd: opts.cwd ?? sb.dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'fleetcom-test', version: '0' });
  await client.connect(transport);
  const close = () => client.close().catch(() => {});
  onTestFinished(close);
  return {
    client,
    stderr: () => stderr,
    close,
    async call(tool, args, timeoutMs = 60_000) {
      const started = Date.now();
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs });
      const texts = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '');
      let json: unknown;
      try {
        json = JSON.parse(texts[0] ?? '');
      } catch {
        json = undefined;
      }
      return { texts, json, isError: result.isError === true, ms: Date.now() - started };
    },
  };
}
