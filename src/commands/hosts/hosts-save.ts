// `fleetcom save NAME --all-hosts [--hosts a,b]`: one recipe of this machine's fleet and every
// host's, each host's entries made by that host's fleetcom (`save --stdout`), where its
// conversations live, so each is its own resume command. A host that does not answer, or
// answers with something that is not a recipe, stops the save and nothing is written: a
// recipe silently missing a host's tasks would replace a good one.
import type { RecipeTask } from '../../control/protocol.js';
import type { Deps } from '../../deps.js';
import { FleetError, NoFleetError } from '../../errors.js';
import { fleetRecipe, NOTHING_TO_SAVE } from '../../fleet/ids/fleet-recipe.js';
import { askHosts, plainText } from '../../remote/fan-out.js';
import { chosenHosts } from '../../remote/hosts-list.js';
import type { SshRun } from '../../remote/ssh-process.js';
import { countTasks, parseRecipe, type HostDirs, type Recipe } from '../../sessions/index.js';
import { ask } from '../ask.js';
import { hostSettings } from './host-link-of.js';
import { saveName, writeSaved, type SaveOptions } from '../fleet/save.js';

export interface HostsSaveOptions extends SaveOptions {
  hosts?: string;
}

/** A host's `save --stdout`, read as any recipe file is (trust nothing read back). */
export function readSaveReply(run: SshRun, host: string): Recipe {
  if (run.code !== 0) throw new FleetError(`save failed there: ${run.stderr.trim() || `exit ${run.code}`}`);
  if (run.stdout.trim() === '') throw new FleetError('save sent nothing');
  const recipe = parseRecipe(run.stdout, `the recipe of host ${host}`);
  if (recipe.hosts !== undefined && recipe.hosts.size > 0) throw new FleetError('its recipe names hosts of its own; a host saves its own fleet only');
  return recipe;
}

async function localTasks(deps: Deps): Promise<RecipeTask[] | null> {
  try {
    return await ask(deps, { op: 'save' });
  } catch (error) {
    if (error instanceof NoFleetError) return null;
    throw error;
  }
}

export async function runHostsSave(nameArg: string | undefined, opts: HostsSaveOptions, deps: Deps): Promise<number> {
  const name = saveName(nameArg, opts);
  const settings = hostSettings(deps);
  const hosts = chosenHosts(opts.hosts, settings.hosts);
  const [local, replies] = await Promise.all([
    localTasks(deps),
    askHosts(settings.link, hosts, ['save', '--stdout', '--force'], { deadlineMs: settings.timeoutMs, read: readSaveReply }),
  ]);
  const failed = replies.filter((r) => r.failure !== undefined);
  if (failed.length > 0) {
    const reasons = failed.map((r) => `host ${plainText(r.host)}: ${plainText(r.failure?.reason ?? '')}`).join('; ');
    const answered = replies.filter((r) => r.failure === undefined).map((r) => r.host);
    throw new FleetError(`nothing saved: ${reasons}${answered.length > 0 ? ` (save the others with --hosts ${answered.join(',')})` : ''}`);
  }
  const recipe = fleetRecipe(name, local ?? []);
  const hostDirs: HostDirs = new Map();
  for (const r of replies) if (r.value !== undefined && r.value.dirs.size > 0) hostDirs.set(r.host, r.value.dirs);
  recipe.hosts = hostDirs;
  if (local === null) deps.stderr.write('this machine: no fleet running, nothing of it saved\n');
  if (countTasks(recipe) === 0 && !opts.force && !opts.stdout) throw new FleetError(`no host has tasks and ${NOTHING_TO_SAVE} (--force writes an empty session)`);
  await writeSaved(recipe, opts, deps);
  return 0;
}
