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
    stdout: process.stdout,
    stderr: process.stderr,
    now: Date.now,
  };
}

/** The caller's environment without unset entries: what a task is launched with. */
export function callerEnv(deps: Pick<Deps, 'env'>): Record<string, string> {
  return Object.fromEntries(Object.entries(deps.env).filter((e): e is [string, string] => e[1] !== undefined));
}
