// The demo fleet's world, shared by `npm run demo` (demo.mjs) and the README's picture
// (scripts/docs-screenshot.mjs): every home and runtime dir inside `dir`, the fake agents of
// integration/fixtures/bin first on PATH, and no inherited TMUX — so nothing you own (your
// tmux server, ~/.claude, ~/.codex, ~/.gemini, opencode's database) is touched.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('..', import.meta.url));
export const cli = join(repo, 'dist', 'cli.js');
export const recipe = join(repo, 'examples', 'demo.json');

/**
 * The environment of a demo fleet living in `dir` (created here, with its home).
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} [base] what the rest of the environment comes from
 * @returns {Record<string, string>}
 */
export function demoEnv(dir, base = process.env) {
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  /** @type {Record<string, string>} */
  const env = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  Object.assign(env, {
    HOME: home,
    XDG_RUNTIME_DIR: join(dir, 'run'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    FLEETCOM_RUNTIME_DIR: join(dir, 'fleetcom-run'),
    FLEETCOM_CONFIG_DIR: join(home, '.config', 'fleetcom'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    GROK_HOME: join(home, '.grok'),
    GEMINI_CLI_HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    PATH: `${join(repo, 'integration', 'fixtures', 'bin')}:${base.PATH ?? ''}`,
    SHELL: '/bin/sh',
    // The fake claude thinks for 3 s, so a message shows it working before it waits for you.
    FAKE_CLAUDE_REPLY_MS: '3000',
  });
  delete env.TMUX;
  delete env.TMUX_PANE;
  return env;
}
