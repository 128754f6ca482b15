// `fleetcom run` called from inside a claude session (its Bash tool): claude's own session
// markers must not reach the task, or the new claude runs as that session's child with no
// transcript, registry entry or exit hint (the fake does as claude-code 2.1.332 was measured
// to do), and could never be resumed. The user's own settings still pass.
import { describe, expect, it } from 'vitest';
import { CLAUDE_MARKERS as MARKERS, talkAndExit } from '../helpers/claude-child.js';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('a task started from inside a claude session', () => {
  it("gets none of the caller's claude markers but keeps its CLAUDE_CONFIG_DIR", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const home = await sb.mkdir('callers-claude-home');
    const r = await fleet.cliIn(sb.dir, { ...sb.env, ...MARKERS, CLAUDE_CONFIG_DIR: home }, 'run', '--', 'claude');
    expect(r.exitCode, r.stderr).toBe(0);
    await talkAndExit(sb, fleet, r.stdout.trim(), home);
  });

  it("does not inherit them from the tmux server's global environment either", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    for (const [name, value] of Object.entries(MARKERS)) await sb.tmux('set-environment', '-g', name, value);
    await talkAndExit(sb, fleet, await fleet.run('claude'), sb.env.CLAUDE_CONFIG_DIR ?? '');
  });
});
