// Test-only: POSIX single-quoting for building tmux command strings in tests.
export function quoteForTest(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
