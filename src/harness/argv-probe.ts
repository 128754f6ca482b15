import { agentArgs, agentProgram, namesNone, type AgentProbe, type ProcessTraces } from './probe.js';

// Agents that keep no record of which running process holds which conversation (grok, gemini,
// opencode: their session files and database name no pid, and they hold none of them open):
// a process started by hand runs the conversation its argv names (a pinned id, a resumed one);
// otherwise only its exit hint will tell, and it is adopted with no id until then.

export interface ArgvIds {
  /** The flags whose value is the conversation id (`--session-id`, `--resume`, `-r`). */
  flags: readonly string[];
  isId: (value: unknown) => value is string;
  /** Why the agent's other traces cannot name the conversation: shown when argv names none. */
  noRecord: string;
}

export function argvProbe(name: string, ids: ArgvIds): AgentProbe {
  return { program: (argv, dirs) => agentProgram(name, argv, dirs), traces: (process) => argvTraces(agentArgs(name, process.argv), ids) };
}

export function argvTraces(args: readonly string[], { flags, isId, noRecord }: ArgvIds): ProcessTraces {
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!flags.includes(flag)) continue;
    const value = flag !== arg ? arg.slice(eq + 1) : args[++i];
    if (value !== undefined) named.push(value);
  }
  const ids = [...new Set(named)];
  const [only] = ids;
  if (ids.length === 0) return namesNone(`its argv names no conversation (${noRecord}; its exit hint will tell)`);
  if (ids.length > 1) return namesNone(`its argv names ${ids.length} conversations (${ids.join(', ')})`);
  if (only === undefined || !isId(only)) return namesNone(`its argv names ${JSON.stringify(only)}, not a conversation id`);
  return { conversation: { kind: 'id', id: only, from: 'its argv' }, attention: null };
}
