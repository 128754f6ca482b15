import { join } from 'node:path';
import { agentHome } from '../paths.js';
import type { HomeRule } from './harness.js';

// The home rules the agents share; an agent with its own rule (opencode's database) writes it
// in its own file.

/** One variable naming the home, else `$HOME/<dir>` (claude, codex, grok; `dir` '' for gemini's home stand-in). */
export function homeFromVariable(name: string, variable: string, dir: string): HomeRule {
  return {
    vars: [variable],
    resolve: (env) => agentHome(env, { name, homeVar: variable, homeDir: dir }),
    varsFor: (home) => ({ [variable]: home }),
    defaults: (userHome) => ({ [variable]: join(userHome, dir) }),
  };
}
