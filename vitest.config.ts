import { defineConfig } from 'vitest/config';

// Two suites: `test/` is pure unit tests (no tmux, no real HOME); `integration/` drives a
// real tmux server on a private socket per test with the built CLI. Every run also writes a
// JSON report that .ci/run sums into its closing `N passed, N failed` line (FLEETCOM_TEST_REPORT
// names it when CI runs the suites more than once: one report per Node version).
// A third project, `package`, packs and installs the CLI; `npm test` leaves it out (packing
// rebuilds dist/ under the running integration tests) and CI runs it after them.
export default defineConfig({
  test: {
    // A 2-core machine: never more than two test files at once (integration starts tmux).
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: process.env.FLEETCOM_TEST_REPORT ?? 'reports/vitest.json' }]],
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
          exclude: ['integration/package/**'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'package',
          include: ['integration/package/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          pool: 'forks',
        },
      },
    ],
  },
});
