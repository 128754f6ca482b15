// `fleetcom history [--cwd DIR] [--all] [--agent NAME] [--search TEXT] [--limit N] [--json] [--verbose]`:
// every conversation the agents keep, newest first, from their own stores.
import { resolve } from 'node:path';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { HARNESS_NAMES, type HarnessName, type HistoryScope } from '../../harness/index.js';
import { fleetTasks, heldBy, historyLine, holderCheck, readHistory, scopeDirs, searchFound, skippedSummary, snippetLine, type Found, type HeldBy, type HistoryRow } from '../../history/index.js';
import { fleetView } from './history-fleet.js';

export interface HistoryOptions {
  cwd?: string;
  all?: boolean;
  agent?: string;
  search?: string;
  limit?: string;
  json?: boolean;
  verbose?: boolean;
}

export function historyAgent(value: string | undefined): HarnessName | null {
  if (value === undefined) return null;
  if (!(HARNESS_NAMES as readonly string[]).includes(value)) throw new UsageError(`--agent ${value}: expected one of ${HARNESS_NAMES.join(', ')}`);
  return value as HarnessName;
}

function limitOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1) throw new UsageError(`--limit ${value}: expected a whole number from 1`);
  return Number(value);
}

export async function historyScope(opts: Pick<HistoryOptions, 'cwd' | 'all'>, deps: Deps): Promise<HistoryScope> {
  if (opts.all && opts.cwd !== undefined) throw new UsageError('history takes --cwd or --all, not both');
  if (opts.all) return { kind: 'all' };
  return { kind: 'dirs', dirs: await scopeDirs(resolve(deps.cwd, opts.cwd ?? '.'), { ...deps.env } as NodeJS.ProcessEnv) };
}

export function rowOf(found: Found, held: HeldBy): HistoryRow {
  return {
    agent: found.agent, id: found.id, title: found.title, firstPrompt: found.firstPrompt, updatedAt: new Date(found.updatedAt).toISOString(),
    messages: found.messages, cwd: found.cwd, home: found.home, heldBy: held,
  };
}

/** The terminal's width when stdout is one; null (never cut) for a file or a pipe. */
function widthOf(deps: Deps): number | null {
  const out = deps.stdout as { isTTY?: boolean; columns?: number };
  return out.isTTY === true && typeof out.columns === 'number' && out.columns > 20 ? out.columns : null;
}

export async function runHistory(opts: HistoryOptions, deps: Deps): Promise<number> {
  const agent = historyAgent(opts.agent);
  const limit = limitOf(opts.limit);
  if (opts.search !== undefined && opts.search.trim() === '') throw new UsageError('--search needs some text');
  const scope = await historyScope(opts, deps);
  const view = await fleetView(deps);
  const gathered = await readHistory(deps.env, view, scope, agent);
  const fleet = fleetTasks(view);
  const now = deps.now();
  const width = widthOf(deps);
  const skipped = [...gathered.skipped];
  let rows: HistoryRow[] = [];
  if (opts.search === undefined) {
    const shown = limit === null ? gathered.found : gathered.found.slice(0, limit);
    const held = heldBy(shown, fleet, view.tmuxSocket);
    rows = shown.map((found, i) => rowOf(found, held[i] ?? null));
    // One write: a write per line was 20 000 write(2) calls for `--all` of 20 000.
    if (opts.json) deps.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else if (rows.length > 0) deps.stdout.write(`${rows.map((row) => historyLine(row, now, width)).join('\n')}\n`);
  } else {
    const matches: Array<HistoryRow & { snippet: string }> = [];
    const holder = holderCheck(fleet, view.tmuxSocket);
    for (const event of searchFound(gathered.found, opts.search)) {
      if (event.kind === 'skipped') {
        skipped.push(event.skip);
        continue;
      }
      const row = { ...rowOf(event.row, holder(event.row)), snippet: event.snippet };
      matches.push(row);
      // Streamed: each match shows as its file is read.
      if (!opts.json) deps.stdout.write(`${historyLine(row, now, width)}\n${snippetLine(row.snippet, width)}\n`);
      if (limit !== null && matches.length >= limit) break;
    }
    rows = matches;
    if (opts.json) deps.stdout.write(`${JSON.stringify(matches, null, 2)}\n`);
  }
  for (const line of [...gathered.notes, ...skippedSummary(skipped, opts.verbose === true)]) deps.stderr.write(`${line}\n`);
  if (rows.length === 0 && !opts.json) {
    const where = scope.kind === 'all' ? 'any directory' : scope.dirs[0] ?? '';
    deps.stderr.write(`no conversation${opts.search === undefined ? '' : ` holds ${JSON.stringify(opts.search)}`} in ${where} (${gathered.homes.length} agent home${gathered.homes.length === 1 ? '' : 's'} read${scope.kind === 'all' ? '' : '; --all for every directory'})\n`);
  }
  return 0;
}
