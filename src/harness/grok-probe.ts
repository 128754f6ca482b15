import { isValidId } from './ids.js';
import { namesNone, type ProcessTraces } from './probe.js';

// A grok started by hand keeps no record of a running session: the conversation it runs is
// the one its argv names (`--session-id <id>` pins a new one, `--resume <id>`/`-r <id>`
// continues one); otherwise only its exit hint will tell.

const ID_FLAGS = ['--session-id', '--resume', '-r'];

export function grokTraces(args: readonly string[]): ProcessTraces {
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!ID_FLAGS.includes(flag)) continue;
    const value = flag !== arg ? arg.slice(eq + 1) : args[++i];
    if (value !== undefined) named.push(value);
  }
  const ids = [...new Set(named)];
  const [only] = ids;
  if (ids.length === 0) return namesNone('its argv names no conversation (grok keeps no record of a running session; its exit hint will tell)');
  if (ids.length > 1) return namesNone(`its argv names ${ids.length} conversations (${ids.join(', ')})`);
  if (only === undefined || !isValidId(only)) return namesNone(`its argv names ${JSON.stringify(only)}, not a conversation id`);
  return { conversation: { kind: 'id', id: only, from: 'its argv' }, attention: null };
}
