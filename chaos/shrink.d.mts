// Types of shrink.mjs for the TypeScript unit tests.
export function shrink<T>(
  steps: T[],
  fails: (steps: T[]) => Promise<boolean>,
  opts?: { budget?: number; log?: (line: string) => void },
): Promise<{ steps: T[]; runs: number }>;
