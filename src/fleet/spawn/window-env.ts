// Which environment a task's window gets. Pure.
import { FleetError } from '../../errors.js';
import { isParentMarker, parentMarkersIn } from '../../harness/index.js';

/** Never passed: tmux sets them per pane, or they belong to one process or one task run. */
const NEVER_PASSED = new Set([
  'TMUX',
  'TMUX_PANE',
  'TERM',
  'COLUMNS',
  'LINES',
  'PWD',
  'OLDPWD',
  'SHLVL',
  '_',
  'FLEETCOM_CAPTURE_FILE',
  'FLEETCOM_NOTIFY_CHAIN',
]);

/** tmux refuses a command whose message exceeds 16 KiB (its imsg limit). */
export const TMUX_COMMAND_LIMIT = 16_384;
/** Room for the rest of the new-window sequence: window options, the pane-died hook, framing. */
const SEQUENCE_MARGIN = 2_048;

/** The caller's variables that differ from tmux's global environment, then the harness pairs. */
export function windowEnv(
  caller: Readonly<Record<string, string | undefined>>,
  global: Readonly<Record<string, string>>,
  harnessPairs: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(caller)) {
    // isParentMarker: a claude's own session markers, when fleetcom is called from inside one.
    if (value === undefined || NEVER_PASSED.has(key) || isParentMarker(key) || global[key] === value) continue;
    env[key] = value;
  }
  return { ...env, ...harnessPairs };
}

/**
 * The words that start a task's argv so that it does not inherit claude's session markers
 * from tmux's global environment (a server started from inside a claude has them): `-e`
 * can only add variables, so `env -u NAME …` drops them; nothing when there are none.
 */
export function dropInherited(global: Readonly<Record<string, string>>): string[] {
  const names = parentMarkersIn(global);
  return names.length === 0 ? [] : ['env', ...names.flatMap((name) => ['-u', name])];
}

/** Fails, naming the largest variables, when the new-window command would be too big for tmux. */
export function checkCommandSize(argv: readonly string[], env: Readonly<Record<string, string>>): void {
  const words = [...argv, ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`])];
  const size = words.reduce((sum, word) => sum + Buffer.byteLength(word) + 1, SEQUENCE_MARGIN);
  if (size <= TMUX_COMMAND_LIMIT) return;
  const largest = Object.entries(env)
    .map(([key, value]) => ({ key, bytes: Buffer.byteLength(key) + Buffer.byteLength(value) + 1 }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3)
    .map((v) => `${v.key} (${v.bytes} bytes)`)
    .join(', ');
  throw new FleetError(
    `the task's command and environment need ${size} bytes but tmux accepts about ${TMUX_COMMAND_LIMIT}; ` +
      `the largest variables are ${largest || '(none)'}: unset or shorten them and try again`,
  );
}
