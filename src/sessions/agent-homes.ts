// A recipe entry's agent homes: `"env": {"CLAUDE_CONFIG_DIR": "~/.claude-work"}`. Only the
// agents' home variables may appear — a recipe is shared and loaded with the caller's
// environment, so a free-form env would let a file set LD_PRELOAD or PATH for every task.
import { AGENT_HOME_VARS as HOME_VARS, HARNESSES } from '../harness/index.js';
import { abbreviateDir, expandDir } from './names.js';

/** The variables each harness's home rule names (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, …). */
export const AGENT_HOME_VARS: readonly string[] = HOME_VARS;

/** Variable → directory; as written in a file (`~/…` or absolute) or, after expandHomes, absolute. */
export type AgentHomes = Record<string, string>;

const CONTROL = /\p{Cc}/u;

/**
 * Why `value` of `env` in a recipe entry is refused, or null when it is a valid set of agent
 * homes: an object whose keys are agent-home variables and whose values are absolute paths,
 * `~` or `~/…`, without control characters.
 */
export function agentHomesProblem(value: unknown): { key: string | null; message: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { key: null, message: `expected an object of agent homes (${AGENT_HOME_VARS.join(', ')})` };
  }
  for (const [key, dir] of Object.entries(value)) {
    if (!AGENT_HOME_VARS.includes(key)) {
      return { key, message: `only the agent homes ${AGENT_HOME_VARS.join(', ')} may be set in a recipe, not ${JSON.stringify(key)}` };
    }
    if (typeof dir !== 'string') return { key, message: 'expected a directory (a string)' };
    if (CONTROL.test(dir)) return { key, message: 'a directory must not contain control characters' };
    if (!(dir.startsWith('/') || dir === '~' || dir.startsWith('~/'))) {
      return { key, message: `expected an absolute directory or ~/…, not ${JSON.stringify(dir)}` };
    }
  }
  return null;
}

/** `~` and `~/…` against the caller's HOME; absolute paths normalised. */
export function expandHomes(homes: AgentHomes, home: string): AgentHomes {
  return Object.fromEntries(Object.entries(homes).map(([key, dir]) => [key, expandDir(dir, home, '/')]));
}

/**
 * What a save writes: each home that differs from the default a loader computes from HOME
 * (`~/.claude`, `~/.codex`, …: each harness's home rule), in the `~/…` form; null when none is left.
 */
export function homesToWrite(homes: AgentHomes | undefined, home: string): AgentHomes | null {
  if (homes === undefined) return null;
  const kept: AgentHomes = {};
  for (const harness of HARNESSES) {
    const defaults = harness.home.defaults(home);
    for (const name of harness.home.vars) {
      const dir = homes[name];
      if (dir === undefined) continue;
      const absolute = expandDir(dir, home, '/');
      if (absolute === expandDir(defaults[name] ?? '', home, '/')) continue;
      kept[name] = abbreviateDir(absolute, home);
    }
  }
  return Object.keys(kept).length > 0 ? kept : null;
}
