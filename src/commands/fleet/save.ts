// `fleetcom save NAME` from any shell: the supervisor turns its tasks into recipe entries
// (agents as resume commands); this process writes the file, with paths resolved against the
// caller's HOME and cwd: the caller's `~` and `.` are what the user means.
import type { RecipeTask } from '../../control/protocol.js';
import type { Deps } from '../../deps.js';
import { FleetError, UsageError } from '../../errors.js';
import { fleetRecipe, NOTHING_TO_SAVE, savedMessage } from '../../fleet/ids/fleet-recipe.js';
import { userHome } from '../../paths.js';
import {
  expandDir,
  normalizeSessionName,
  saveNamed,
  serializeRecipe,
  writeRecipeAtomic,
  type Recipe,
} from '../../sessions/index.js';
import { ask } from '../ask.js';
import { sessionDirOf } from './recipe-io.js';

export interface SaveOptions {
  output?: string;
  stdout?: boolean;
  /** Write even an empty fleet (it replaces the file's tasks with none). */
  force?: boolean;
}

/** The name a save without NAME gets: the --output file's stem, else `fleet`. */
function defaultName(opts: SaveOptions): string {
  if (opts.output === undefined) return 'fleet';
  const base = opts.output.replace(/\/+$/, '').split('/').at(-1) ?? '';
  return base.replace(/\.json$/i, '') || 'fleet';
}

export async function runSave(nameArg: string | undefined, opts: SaveOptions, deps: Deps): Promise<number> {
  const name = saveName(nameArg, opts);
  const tasks = await fleetTasks(deps);
  if (tasks.length === 0 && !opts.force && !opts.stdout) throw new FleetError(`${NOTHING_TO_SAVE} (--force writes an empty session)`);
  await writeSaved(fleetRecipe(name, tasks), opts, deps);
  return 0;
}

/** The session's name, after the checks of the options that say where it goes. */
export function saveName(nameArg: string | undefined, opts: SaveOptions): string {
  if (opts.output !== undefined && opts.stdout) throw new UsageError('save takes --output FILE or --stdout, not both');
  if (nameArg === undefined && opts.output === undefined && !opts.stdout) throw new UsageError('save needs a session NAME');
  const name = normalizeSessionName(nameArg ?? defaultName(opts));
  if (name === '') throw new UsageError('a session name must not be empty');
  if (opts.output !== undefined && opts.output.trim() === '') throw new UsageError('--output needs a file name');
  return name;
}

/** Writes the recipe where the options say (stdout, --output, or the session dir) and says so. */
export async function writeSaved(recipe: Recipe, opts: SaveOptions, deps: Deps): Promise<void> {
  const home = userHome(deps.env);
  if (opts.stdout) {
    deps.stdout.write(serializeRecipe(recipe, home));
  } else if (opts.output !== undefined) {
    await writeRecipeAtomic(expandDir(opts.output, home, deps.cwd), serializeRecipe(recipe, home));
  } else {
    await saveNamed(sessionDirOf(deps), recipe.name, recipe, home);
  }
  deps.stderr.write(savedMessage(recipe));
}

function fleetTasks(deps: Deps): Promise<RecipeTask[]> {
  return ask(deps, { op: 'save' });
}
