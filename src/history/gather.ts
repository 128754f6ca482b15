import * as path from 'node:path';
import type { HarnessName, HistoryScope } from '../harness/index.js';
import { readRecipeFile, listSessions } from '../sessions/index.js';
import { expandHomes } from '../sessions/agent-homes.js';
import { HistoryCache } from './cache.js';
import { collect } from './collect.js';
import { configuredHomes, homesOf, unique } from './homes.js';
import type { AgentHome, Found, Skipped } from './types.js';

// One history read, from the caller's side: the homes to read (default, tasks', recipes',
// configured), the cache, and the conversations of the scope, newest first.

type Env = Readonly<Record<string, string | undefined>>;

export interface GatherInput {
  env: Env;
  userHome: string;
  /** The running fleet's tasks' agent homes (its `save` reply's `env`); none without a fleet. */
  taskHomes: ReadonlyArray<Readonly<Record<string, string>>>;
  sessionDir: string;
  configured: Readonly<Partial<Record<HarnessName, readonly string[]>>>;
  /** Only this agent's conversations. */
  agent: HarnessName | null;
  scope: HistoryScope;
  /** The cache file; null: no cache. */
  cacheFile: string | null;
}

export interface Gathered {
  homes: AgentHome[];
  found: Found[];
  skipped: Skipped[];
  /** Problems that lose nothing but should be said (a cache rebuilt, one not written). */
  notes: string[];
}

/** The agent homes saved recipes set on their entries (unreadable recipes are passed over). */
async function recipeHomes(sessionDir: string, userHome: string): Promise<Array<Record<string, string>>> {
  const listing = await listSessions(sessionDir);
  const homes: Array<Record<string, string>> = [];
  for (const saved of listing.saved) {
    if (saved.error !== null) continue;
    try {
      const recipe = await readRecipeFile(saved.file);
      for (const entries of recipe.dirs.values()) for (const entry of entries) if (entry.env !== undefined) homes.push(expandHomes(entry.env, userHome));
    } catch {
      // Read once by listSessions already; one that changed meanwhile is passed over.
    }
  }
  return homes;
}

export async function gatherHistory(input: GatherInput): Promise<Gathered> {
  const overlays = [...input.taskHomes, ...(await recipeHomes(input.sessionDir, input.userHome))];
  const homes = unique([...homesOf(input.env, overlays), ...configuredHomes(input.configured, input.userHome)])
    .filter((h) => input.agent === null || h.agent === input.agent);
  const cache = input.cacheFile === null ? HistoryCache.none() : HistoryCache.load(input.cacheFile);
  const notes: string[] = [];
  if (cache.discarded !== null) notes.push(`the history cache ${input.cacheFile ?? ''} was rebuilt: ${cache.discarded}`);
  const { found, skipped } = collect(homes, input.scope, cache);
  const unsaved = cache.save();
  if (unsaved !== null) notes.push(unsaved);
  return { homes, found, skipped, notes };
}

/** The cache file in fleetcom's cache dir. */
export function historyCacheFile(cacheDir: string): string {
  return path.join(cacheDir, 'history-cache.json');
}
