import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './sequencer.js';

// The real-client contract suite (opt-in: `npm run test:clients`, which runs clients/run.mjs;
// never part of `npm test`). It must run inside a private network namespace: global-setup.ts
// refuses to start otherwise. Writes a JSON report that .ci/run sums with the main one.
export default defineConfig({
  test: {
    name: 'clients',
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['clients/**/*.test.ts'],
    globalSetup: ['clients/global-setup.ts'],
    // Real clients take seconds to start and answer on a loaded 2-core machine.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One file per agent; two at once is what 2 cores take with real clients and tmux.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    // The cases of the claude, ownership and codex files run at once (describe.concurrent), each
    // in a world of its own: most of such a case waits on the client. park's stay one by one:
    // three parked conversations at once (each a claude daemon and workers) timed out at load 23.
    maxConcurrency: 3,
    reporters: ['default', ['json', { outputFile: 'reports/clients.json' }]],
  },
});
