// The side effects a command may use, passed in so tests can run commands in-process.
import { writeSync } from 'node:fs';

export interface Output {
  write(text: string): unknown;
}

export interface Deps {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: Output;
  stderr: Output;
  now: () => number;
}

export function processDeps(): Deps {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: descriptorOutput(1, () => process.stdout),
    stderr: descriptorOutput(2, () => process.stderr),
    now: Date.now,
  };
}

/**
 * Writes straight to the descriptor while it takes each text whole: Node makes a stream for
 * stdout or stderr on first use (~4 ms of a 60 ms start), which a command printing a few lines
 * need not pay. From the first write the descriptor does not take at once (a full pipe left
 * non-blocking), and for every write after it, the stream takes over: it queues what is left,
 * flushes it before exit and reports the error as it always did. A reader that has gone
 * (`fleetcom history | head`: EPIPE) wants nothing more: the rest is dropped, as a Unix filter
 * does, rather than ending the command with a stack trace.
 */
export function descriptorOutput(fd: number, stream: () => Pick<NodeJS.WritableStream, 'write' | 'on'>): Output {
  let streamed = false;
  let readerGone = false;
  let listening = false;
  return {
    write(text: string) {
      if (readerGone) return true;
      let rest = Buffer.from(text);
      if (!streamed) {
        try {
          while (rest.length > 0) {
            const written = writeSync(fd, rest);
            if (written <= 0) throw new Error('the descriptor took nothing');
            rest = rest.subarray(written);
          }
          return true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EPIPE') {
            readerGone = true;
            return true;
          }
          streamed = true;
        }
      }
      const out = stream();
      if (!listening) {
        listening = true;
        out.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EPIPE') throw error;
          readerGone = true;
        });
      }
      return out.write(rest);
    },
  };
}

/** The caller's environment without unset entries: what a task is launched with. */
export function callerEnv(deps: Pick<Deps, 'env'>): Record<string, string> {
  return Object.fromEntries(Object.entries(deps.env).filter((e): e is [string, string] => e[1] !== undefined));
}
