import { defineConfig } from 'vitest/config';

// Two suites: `test/` is pure unit tests (no tmux, no real HOME); `integration/` drives a
// real tmux server on a private socket per test with the built CLI. Every run also writes a
// JSON report that .ci/run sums into its closing `N passed, N failed` line.
export default defineConfig({
  test: {
    // A 2-core machine: never more than two test files at once (integration starts tmux).
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['integration/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
  },
});
