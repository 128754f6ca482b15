// The environment of a private world, shared by the integration tests' sandbox and the bench's
// world: HOME, the XDG dirs, the agents' homes, fleetcom's dirs and tmux's socket dir all inside
// one temp dir, and nothing inherited (no TMUX, no real HOME), so a test or a benchmark can never
// touch the user's files, the default tmux server or another run's fleet. Plain JavaScript so
// bench/ runs it without a build; sandbox-env.d.mts gives the TypeScript tests its types.
import { mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Makes the directories the environment names that must exist before anything runs (HOME, its
 * .config and .cache, TMPDIR, XDG_RUNTIME_DIR), each 0700 like a real user's. The agents' homes
 * and FLEETCOM_RUNTIME_DIR are left out: the fakes and fleetcom create (and chmod) their own.
 * @param {string} dir
 */
export function makeSandboxDirs(dir) {
  for (const sub of ['home', 'home/.config', 'home/.cache', 'tmp', 'xdg-runtime']) {
    mkdirSync(join(dir, sub), { recursive: true, mode: 0o700 });
  }
}

/**
 * A complete environment inside `dir`: PATH starts with `bin` (the fake agents) and the running
 * node's directory, SHELL=/bin/sh, LANG=C.UTF-8, TERM=xterm-256color.
 * @param {string} dir
 * @param {string} bin
 * @returns {Record<string, string>}
 */
export function sandboxEnv(dir, bin) {
  /** @param {string[]} parts */
  const p = (...parts) => join(dir, ...parts);
  const user = userInfo().username;
  return {
    PATH: [bin, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: p('home'),
    USER: user,
    LOGNAME: user,
    SHELL: '/bin/sh',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    TMPDIR: p('tmp'),
    TMUX_TMPDIR: p('tmp'),
    XDG_RUNTIME_DIR: p('xdg-runtime'),
    XDG_CONFIG_HOME: p('home', '.config'),
    XDG_CACHE_HOME: p('home', '.cache'),
    XDG_DATA_HOME: p('home', '.local', 'share'),
    XDG_STATE_HOME: p('home', '.local', 'state'),
    CLAUDE_CONFIG_DIR: p('home', '.claude'),
    CODEX_HOME: p('home', '.codex'),
    GROK_HOME: p('home', '.grok'),
    // gemini's stand-in for HOME and opencode's database, each at its default under this HOME.
    GEMINI_CLI_HOME: p('home'),
    OPENCODE_DB: p('home', '.local', 'share', 'opencode', 'opencode.db'),
    // pi's and copilot's homes, at their defaults under this HOME.
    PI_CODING_AGENT_DIR: p('home', '.pi', 'agent'),
    COPILOT_HOME: p('home', '.copilot'),
    // qwen's global folder and Kilo's database, each at its default under this HOME.
    QWEN_HOME: p('home', '.qwen'),
    // qwen's system settings (and the system defaults beside them, which fleetcom's hooks stand
    // in for only where there are none) in this world, never the machine's /etc/qwen-code.
    QWEN_CODE_SYSTEM_SETTINGS_PATH: p('qwen-system', 'settings.json'),
    KILO_DB: p('home', '.local', 'share', 'kilo', 'kilo.db'),
    // Not created: fleetcom creates (and chmods) its own runtime dir.
    FLEETCOM_RUNTIME_DIR: p('fleetcom-run'),
    FLEETCOM_CONFIG_DIR: p('home', '.config', 'fleetcom'),
    // git reads only a config file of this world (a test writes its identity there), never the machine's.
    GIT_CONFIG_GLOBAL: p('home', '.gitconfig'),
    GIT_CONFIG_NOSYSTEM: '1',
    // The fakes take an Enter that follows text within a few ms as a newline, as codex (its paste
    // burst) and gemini (its fast return) do. Tests and benchmarks that type a line with send-keys
    // press Enter right after it: off for them; the delivery tests (integration/orchestration)
    // and the send bench turn it on with the measured windows.
    FAKE_CODEX_PASTE_BURST_MS: '0',
    FAKE_GEMINI_FAST_RETURN_MS: '0',
    FAKE_GEMINI_PASTE_ENTER_MS: '0',
  };
}
