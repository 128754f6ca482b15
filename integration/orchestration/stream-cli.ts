// The built CLI as a long-running process whose output is read while it runs (`events`): its
// lines so far, a wait for one, and its end (it is stopped with SIGINT if still running).
import { spawn } from 'node:child_process';
import { cliPath } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait-for.js';

export interface StreamedCli {
  lines(): string[];
  /** Waits until a line satisfies `test`; returns it. */
  line(test: (line: string) => boolean, what: string, timeout?: number): Promise<string>;
  /** Stops it (SIGINT) unless it ended; its exit code and stderr. */
  stop(): Promise<{ code: number | null; stderr: string }>;
  ended(): Promise<{ code: number | null; stderr: string }>;
}

/**
 * Waits until an `events --json` stream listens: it shows a task started after it (one more
 * each try, since it may not have connected yet). The marker tasks are left running.
 */
export async function listening(feed: StreamedCli, run: () => Promise<string>): Promise<number[]> {
  const markers: number[] = [];
  await waitFor(async () => {
    markers.push(Number(await run()));
    return feed.lines().some((l) => l.includes('"type":"started"'));
  }, { what: 'the event stream to show a task started after it', interval: 300 });
  return markers;
}

export function streamCli(args: readonly string[], env: Record<string, string>, cwd: string): StreamedCli {
  const child = spawn(process.execPath, [cliPath, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr: err })));
  const lines = () => out.split('\n').filter((l) => l !== '');
  return {
    lines,
    line: (test, what, timeout) => waitFor(() => lines().find(test) ?? false, { what, timeout }).catch((e: Error) => {
      throw new Error(`${e.message}\n--- stdout ---\n${out}\n--- stderr ---\n${err}`);
    }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return exited;
    },
    ended: () => exited,
  };
}
