import { describe, expect, it } from 'vitest';
import { fleetTmux } from '../../../src/fleet/tmux/tmux-adapter.js';
import type { TmuxRun } from '../../../src/tmux/runner.js';

// The start reads tmux's global environment with its other queries and primes the adapter
// with it: the load at start uses it, and every launch after reads tmux again.

describe('fleetTmux.globalEnvironment', () => {
  const asking = () => {
    const calls: string[][] = [];
    const tmux: TmuxRun = {
      run: async () => '',
      runSequence: async (commands) => (calls.push(commands.map((c) => c[0] ?? '')), 'HOME="/h"; export HOME;'),
    };
    return { tmux, calls };
  };

  it('answers the primed environment once, then asks tmux', async () => {
    const { tmux, calls } = asking();
    const adapter = fleetTmux(tmux, '$0', { globalEnvironment: { HOME: '/primed' } });
    expect(await adapter.globalEnvironment()).toEqual({ HOME: '/primed' });
    expect(calls).toEqual([]);
    expect(await adapter.globalEnvironment()).toEqual({ HOME: '/h' });
    expect(calls).toEqual([['show-environment']]);
  });

  it('asks tmux once the start has cleared what it primed', async () => {
    const { tmux, calls } = asking();
    const primed: { globalEnvironment: Record<string, string> | null } = { globalEnvironment: { HOME: '/primed' } };
    const adapter = fleetTmux(tmux, '$0', primed);
    primed.globalEnvironment = null;
    expect(await adapter.globalEnvironment()).toEqual({ HOME: '/h' });
    expect(calls).toHaveLength(1);
  });
});
