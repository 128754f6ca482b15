// The side effects a command may use, passed in so tests can run commands in-process.

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
    // Reached on the first write: Node makes a stream for each on first use (~4 ms of CPU on
    // 2 loaded cores), which a command that prints nowhere, or only to one, does not pay.
    stdout: { write: (text: string) => process.stdout.write(text) },
    stderr: { write: (text: string) => process.stderr.write(text) },
    now: Date.now,
  };
}

/** The caller's environment without unset entries: what a task is launched with. */
export function callerEnv(deps: Pick<Deps, 'env'>): Record<string, string> {
  return Object.fromEntries(Object.entries(deps.env).filter((e): e is [string, string] => e[1] !== undefined));
}
