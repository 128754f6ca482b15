// One command line of the CLI run in this process, its stdout and stderr captured, under a
// deadline: an MCP client times a tool call out (the SDK's client after 60 s, codex's after
// its tool_timeout_sec), so the server answers before it, whatever the command does.
import type { Deps } from '../deps.js';

/** The CLI's own entry for one command line: parses it, runs it, reports its errors, returns its exit code. */
export type CommandLine = (argv: readonly string[], deps: Deps) => Promise<number>;

export interface Captured {
  argv: readonly string[];
  /** null: no answer within the deadline (the command goes on; what it prints later is dropped). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export async function runCaptured(run: CommandLine, argv: readonly string[], base: Omit<Deps, 'stdout' | 'stderr'>, deadlineMs: number): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  let open = true;
  const deps: Deps = {
    ...base,
    stdout: { write: (text: string) => (open ? (stdout += text) : '') },
    stderr: { write: (text: string) => (open ? (stderr += text) : '') },
  };
  const started = base.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
  });
  // A throw the entry did not turn into an exit code is a failure of the command all the same.
  const ran = run(argv, deps).catch((error: unknown) => {
    stderr += `fleetcom: ${error instanceof Error ? error.message : String(error)}\n`;
    return 1;
  });
  try {
    const exitCode = await Promise.race([ran, late]);
    return { argv, exitCode, stdout, stderr, ms: base.now() - started };
  } finally {
    open = false;
    clearTimeout(timer);
  }
}
