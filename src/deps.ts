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
 * non-blocking, a closed reader), and for every write after it, the stream takes over: it
 * queues what is left, flushes it before exit and reports the error as it always did.
 */
export function descriptorOutput(fd: number, stream: () => Pick<NodeJS.WritableStream, 'write'>): Output {
  let streamed = false;
  return {
    write(text: string) {
      let rest = Buffer.from(text);
      if (!streamed) {
        try {
          while (rest.length > 0) {
            const written = writeSync(fd, rest);
            if (written <= 0) throw new Error('the descriptor took nothing');
            rest = rest.subarray(written);
          }
          return true;
        } catch {
          streamed = true;
        }
      }
      return stream().write(rest);
    },
  };
}

/** The caller's environment without unset entries: what a task is launched with. */
export function callerEnv(deps: Pick<Deps, 'env'>): Record<string, string> {
  return Object.fromEntries(Object.entries(deps.env).filter((e): e is [string, string] => e[1] !== undefined));
}
