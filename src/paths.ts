// Every directory fleetcom reads or writes, answered from an environment passed in (the
// process's by default): the user's home, the runtime dir, the config and sessions dirs, the
// capture root and the agents' homes. Asking one module keeps the CLI, the supervisor and the
// tests agreeing on where a file is; nothing else computes a root.
import { homedir as osHomedir, tmpdir as osTmpdir } from 'node:os';
import { isAbsolute, join, posix, win32 } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

/** `$HOME` of the given environment, else the account's home directory. */
export function userHome(env: Env = process.env): string {
  return env.HOME || osHomedir();
}

/** `$FLEETCOM_RUNTIME_DIR` verbatim; else `$XDG_RUNTIME_DIR/fleetcom`; else `<tmpdir>/fleetcom-<uid>`. */
export function runtimeDir(env: Env = process.env, uid: number = process.getuid?.() ?? 0, tmpdir: string = osTmpdir()): string {
  if (env.FLEETCOM_RUNTIME_DIR) return env.FLEETCOM_RUNTIME_DIR;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'fleetcom');
  return join(env.TMPDIR || tmpdir, `fleetcom-${uid}`);
}

export interface RuntimeFiles {
  dir: string;
  socket: string;
  lock: string;
  state: string;
}

export function runtimeFiles(dir: string): RuntimeFiles {
  return { dir, socket: join(dir, 'default.sock'), lock: join(dir, 'lock'), state: join(dir, 'state.json') };
}

/** The runtime files of the fleet this environment talks to. */
export function fleetRuntime(env: Env = process.env): RuntimeFiles {
  return runtimeFiles(runtimeDir(env));
}

/**
 * The dir of fleetcom's own OpenSSH control sockets, one per host: inside the runtime dir, so
 * it is this user's and 0700 like it (the sockets give whoever can reach them the user's
 * connection to every host).
 */
export function sshControlDir(env: Env = process.env): string {
  return join(runtimeDir(env), 'ssh');
}

/** `$FLEETCOM_CONFIG_DIR`, else `${XDG_CONFIG_HOME:-~/.config}/fleetcom`. */
export function configDir(env: Env = process.env): string {
  if (env.FLEETCOM_CONFIG_DIR) return env.FLEETCOM_CONFIG_DIR;
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec: an empty or relative XDG_CONFIG_HOME is ignored.
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(userHome(env), '.config');
  return join(base, 'fleetcom');
}

export function configFile(env: Env = process.env): string {
  return join(configDir(env), 'config.json');
}

/** Where named sessions (and, below, recovery snapshots) are saved. */
export function sessionDir(env: Env = process.env): string {
  return join(configDir(env), 'sessions');
}

export interface CaptureRootOptions {
  /** The sessions dir whose hash tells fleets with different config dirs apart; sessionDir(env) by default. */
  sessionDir?: string;
  platform?: NodeJS.Platform;
  homedir?: string;
}

/**
 * The capture root: `FLEETCOM_RUNTIME_DIR` verbatim (no discriminator); otherwise the platform
 * runtime dir + `/fleetcom` (`$XDG_RUNTIME_DIR`, not on macOS or Windows) or else the platform
 * cache dir + `/run` (env-paths' `cache` for `fleetcom` with `suffix: ''`, i.e. `…/fleetcom/run`),
 * joined with `fnv1a64(sessionDir)`. Empty variables count as unset, as in env-paths.
 */
export function captureRoot(env: Env = process.env, opts: CaptureRootOptions = {}): string {
  if (env.FLEETCOM_RUNTIME_DIR) return env.FLEETCOM_RUNTIME_DIR;
  const platform = opts.platform ?? process.platform;
  const path = platform === 'win32' ? win32 : posix;
  const base =
    platform !== 'darwin' && platform !== 'win32' && env.XDG_RUNTIME_DIR
      ? path.join(env.XDG_RUNTIME_DIR, 'fleetcom')
      : path.join(cacheDir(env, platform, opts.homedir ?? userHome(env)), 'run');
  return path.join(base, fnv1a64(opts.sessionDir ?? sessionDir(env)));
}

/** env-paths 4's `cache` for the name `fleetcom` (suffix ''), computed without process.env. */
export function cacheDir(env: Env, platform: NodeJS.Platform, homedir: string): string {
  if (platform === 'darwin') return posix.join(homedir, 'Library', 'Caches', 'fleetcom');
  if (platform === 'win32') {
    const localAppData = env.LOCALAPPDATA || win32.join(homedir, 'AppData', 'Local');
    return win32.join(localAppData, 'fleetcom', 'Cache');
  }
  return posix.join(env.XDG_CACHE_HOME || posix.join(homedir, '.cache'), 'fleetcom');
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/** 64-bit FNV-1a of the UTF-8 bytes of `text`, as 16 lowercase hex digits. */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
}

/** An agent's home: the variable naming it, and the `$HOME` subdirectory otherwise. */
export interface AgentHomeRule {
  name: string;
  homeVar: string;
  homeDir: string;
}

/**
 * The agent's own variable (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `GROK_HOME`) when set and
 * non-empty, else `$HOME/.<name>`. Unlike userHome there is no fallback to the account's home:
 * a task's agent runs with this environment, and a guessed store could be the wrong one.
 */
export function agentHome(env: Env, rule: AgentHomeRule): string {
  const own = env[rule.homeVar];
  if (own !== undefined && own !== '') return own;
  const home = env.HOME;
  if (home === undefined || home === '') {
    throw new Error(`cannot resolve the ${rule.name} home: neither ${rule.homeVar} nor HOME is set`);
  }
  return defaultAgentHome(home, rule);
}

/** `<home>/.<agent>`: where the agent keeps its store when its own variable is not set. */
export function defaultAgentHome(home: string, rule: Pick<AgentHomeRule, 'homeDir'>): string {
  return join(home, rule.homeDir);
}

/** The worktrees fleetcom made (worktrees/registry.ts): beside config.json, as the sessions are. */
export function worktreeRegistryFile(env: Env = process.env): string {
  return join(configDir(env), 'worktrees.json');
}

/** The runtime dirs fleets of this config dir were started in (fleet/lifecycle/fleet-index.ts). */
export function fleetIndexFile(env: Env = process.env): string {
  return join(configDir(env), 'fleets.json');
}

/** The repository setup scripts the user trusted, by hash (`fleetcom trust`). */
export function trustFile(env: Env = process.env): string {
  return join(configDir(env), 'trusted-setups.json');
}
