// The integration kit itself: the sandbox isolates and cleans up, waitFor reports what it saw.
import { stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createSandbox, fixturesBin, useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { spawnInPane, waitForText } from '../helpers/pane.js';

describe('sandbox', () => {
  it('keeps every home and runtime dir inside its temp dir, fakes first on PATH, no TMUX', async () => {
    const sb = await useSandbox();
    for (const key of ['HOME', 'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME',
      'GROK_HOME', 'FLEETCOM_RUNTIME_DIR', 'FLEETCOM_CONFIG_DIR', 'TMUX_TMPDIR', 'TMPDIR']) {
      expect(sb.env[key], key).toMatch(new RegExp(`^${sb.dir}/`));
    }
    expect(sb.socket).toBe(`${sb.dir}/tmux.sock`);
    expect(sb.env.PATH?.split(':')[0]).toBe(fixturesBin);
    expect(sb.env).not.toHaveProperty('TMUX');
    expect(sb.env).not.toHaveProperty('TMUX_PANE');
    expect(sb.env.SHELL).toBe('/bin/sh');
    expect((await stat(sb.env.XDG_RUNTIME_DIR ?? '')).mode & 0o777).toBe(0o700);
    expect((await stat(sb.dir)).mode & 0o777).toBe(0o700);
  });

  it('runs tasks with the sandbox environment: the fake agents are the ones found', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    // The task stays alive once it has printed: tmux drops what a process printed but the server
    // had not read yet when it exits at once (seen once on the loaded machine: an empty pane).
    const w = await spawnInPane(sb, session, 'for c in claude codex grok; do command -v $c; done; echo "HOME=$HOME"; exec sleep 600');
    const text = await waitForText(sb, w.paneId, 'HOME=');
    expect(text).toContain(`${fixturesBin}/claude\n${fixturesBin}/codex\n${fixturesBin}/grok`);
    expect(text).toContain(`HOME=${sb.home}`);
  });

  it('cleanup kills its own server and removes the dir (twice is fine)', async () => {
    const sb = await createSandbox();
    await sb.startServer();
    expect(await sb.ops.hasSession('main')).toBe(true);
    await sb.cleanup();
    await expect(stat(sb.dir)).rejects.toThrow();
    await sb.cleanup();
  });
});

describe('waitFor', () => {
  it('returns the first truthy value of a sync or async predicate', async () => {
    let n = 0;
    expect(await waitFor(() => (++n >= 3 ? n : false), { what: 'three polls', interval: 1 })).toBe(3);
    expect(await waitFor(async () => 'x', { what: 'async' })).toBe('x');
    expect(await waitFor(() => 0, { what: 'zero counts as a value' })).toBe(0);
  });
  it('times out naming what it waited for and the last value or error', async () => {
    await expect(waitFor(() => null, { what: 'nothing', timeout: 100 })).rejects.toThrow(/waiting for nothing; last value: null/);
    await expect(waitFor(() => { throw new Error('boom'); }, { what: 'boom', timeout: 100 })).rejects.toThrow(/last error: Error: boom/);
  });
});
