// `fleetcom doctor [SESSION | --fleet] [--json | --verbose] [--fix]`: checks every entry of a saved session
// (or every task of the running fleet) without starting anything; exit 1 when any entry would
// fail. --fix starts unresumable entries fresh (the bare agent command) and points an entry
// naming a child's conversation (a codex subagent thread) at the user conversation at its
// root, atomically, after copying the file to a backup beside it.
import type { WorktreeRecord } from '../../worktree-record.js';
import { copyFileSync, constants } from 'node:fs';
import type { RecipeTask } from '../../control/protocol.js';
import { callerEnv, type Deps } from '../../deps.js';
import { errorMessage, FleetError, NoFleetError, UsageError } from '../../errors.js';
import { checkEntry, type DoctorContext, type EntryReport, type EntryToCheck } from '../../doctor/checks.js';
import { formatDoctorTable } from './doctor-table.js';
import type { LsRecord, ReplyOf } from '../../control/protocol.js';
import { detect } from '../../harness/index.js';
import { sharedOpenFiles, type FleetHolder } from '../../ownership/index.js';
import { expandDir, expandHomes, serializeRecipe, writeRecipeAtomic, type Recipe } from '../../sessions/index.js';
import { userHome } from '../../paths.js';
import { ask } from '../ask.js';
import { readRecipeArg, STDIN_SESSION } from '../fleet/recipe-io.js';
import type { HostReport } from '../hosts/hosts-doctor.js';

export interface DoctorOptions {
  fleet?: boolean;
  json?: boolean;
  fix?: boolean;
  /** Every entry its own row: without it, entries failing for the same reason are summed up past the first few. */
  verbose?: boolean;
}

/** The `--json` document. */
export interface DoctorReport {
  source: string;
  entries: EntryReport[];
  failed: number;
  fixed: Array<{ dir: string; from: string; to: string }>;
  backup: string | null;
  /** Each host's own report of its part (a recipe with hosts), or why it could not be had. */
  hosts?: HostReport[];
  /** --fleet: the supervisor's line to tmux (absent from a supervisor too old to say). */
  tmux?: ReplyOf<'status'>['tmuxLink'];
}


export async function runDoctor(session: string | undefined, opts: DoctorOptions, deps: Deps): Promise<number> {
  if (session !== undefined && opts.fleet) throw new UsageError('doctor takes a SESSION or --fleet, not both');
  if (session === undefined && !opts.fleet) throw new UsageError('doctor needs a SESSION (name or path) or --fleet');
  if (opts.fix && opts.fleet) throw new UsageError('--fix rewrites a session file; it does not apply to --fleet');
  const tasks = await fleetTasks(deps, opts.fleet === true);
  const context: DoctorContext = {
    fleet: tasks.filter((t) => t.state !== 'exited' && t.conversationId !== null).map(holderOf),
    tmuxSocket: deps.env.TMUX?.split(',')[0] || null,
    liveness: sharedOpenFiles(),
    fixHint: opts.fleet ? 'a rerun starts it fresh; save again to keep that' : `fleetcom doctor --fix ${session ?? ''} starts it fresh`.replace(/ +starts/, ' starts'),
    fixCommand: opts.fleet ? 'a save' : `fleetcom doctor --fix ${session ?? ''}`.trim(),
  };
  const report = opts.fleet ? await doctorFleet(tasks, context, deps) : await doctorSession(session ?? '', opts.fix === true, context, deps);
  const verbose = opts.verbose === true;
  deps.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorTable(report.entries, verbose));
  if (!opts.json) for (const host of report.hosts ?? []) deps.stdout.write(`\nhost ${host.host}:\n${host.error ?? formatDoctorTable(host.report?.entries ?? [], verbose)}\n`);
  if (!opts.json && report.tmux !== undefined) deps.stderr.write(`${tmuxLinkLine(report.tmux)}\n`);
  for (const fix of report.fixed) deps.stderr.write(`fixed ${fix.dir}: ${fix.from} → ${fix.to}\n`);
  if (report.backup !== null) deps.stderr.write(`the file before: ${report.backup}\n`);
  const ok = report.entries.length - report.failed;
  deps.stderr.write(`${report.source}: ${report.entries.length} entr${report.entries.length === 1 ? 'y' : 'ies'}, ${ok} would start, ${report.failed} would fail\n`);
  let failed = report.failed;
  for (const host of report.hosts ?? []) {
    const n = host.report?.entries.length ?? 0;
    const bad = host.report?.failed ?? 0;
    failed += host.error === null ? bad : 1;
    deps.stderr.write(host.error === null ? `host ${host.host}: ${n} entr${n === 1 ? 'y' : 'ies'}, ${n - bad} would start, ${bad} would fail\n` : `host ${host.host}: not checked: ${host.error}\n`);
  }
  return failed > 0 ? 1 : 0;
}

/** What a load would do with an entry's worktree (changes nothing). */
async function worktreeState(record: WorktreeRecord): Promise<NonNullable<EntryToCheck['worktree']>> {
  const { worktreeCondition } = await import('../../worktrees/recreate.js');
  const condition = await worktreeCondition(record).catch((error: unknown) => ({ state: 'refused' as const, why: errorMessage(error) }));
  return { ...condition, branch: record.branch };
}

function holderOf(task: LsRecord): FleetHolder {
  return { taskId: task.id, windowId: task.windowId, paneId: task.paneId, conversationId: task.conversationId ?? '' };
}

/** The fleet's tasks; none when no fleet runs (unless --fleet asked for it). */
async function fleetTasks(deps: Deps, required: boolean): Promise<LsRecord[]> {
  try {
    return await ask(deps, { op: 'ls' });
  } catch (error) {
    if (error instanceof NoFleetError && !required) return [];
    throw error;
  }
}

async function doctorSession(arg: string, fix: boolean, context: DoctorContext, deps: Deps): Promise<DoctorReport> {
  const home = userHome(deps.env);
  if (fix && arg === STDIN_SESSION) throw new UsageError('--fix rewrites a session file; it does not apply to a recipe on stdin');
  const { file, recipe } = await readRecipeArg(arg, deps);
  if (fix && (recipe.hosts?.size ?? 0) > 0) {
    throw new UsageError(`--fix rewrites entries of this machine only, and ${file} names hosts: fix each host's part there (fleetcom --host HOST doctor --fix) and save again`);
  }
  const env = callerEnv(deps);
  const entries: EntryReport[] = [];
  for (const [dir, list] of recipe.dirs) {
    for (const entry of list) {
      // The caller's environment is shared by every entry without agent homes of its own (300 000 copies cost seconds).
      const cwd = expandDir(dir, home, deps.cwd);
      const check: EntryToCheck = {
        dir, cwd, command: entry.cmd, name: entry.name,
        env: entry.env === undefined ? env : { ...env, ...expandHomes(entry.env, home) },
        ...(entry.worktree ? { worktree: await worktreeState({ ...entry.worktree, repo: expandDir(entry.worktree.repo, home, deps.cwd), path: cwd }) } : {}),
      };
      entries.push(checkEntry(check, context));
    }
  }
  const report: DoctorReport = { source: file, entries, failed: 0, fixed: [], backup: null };
  if (fix && entries.some((e) => e.fix !== null)) await fixRecipe(file, recipe, report, home, deps);
  report.failed = report.entries.filter((e) => e.verdict === 'fail').length;
  if (recipe.hosts !== undefined && recipe.hosts.size > 0) {
    // Each host's entries are checked there, by its fleetcom: their dirs, programs and conversations are its own.
    report.hosts = await (await import('../hosts/hosts-doctor.js')).doctorOnHosts(recipe.name, recipe.hosts, deps);
  }
  return report;
}

/**
 * Unresumable entries become their bare agent command (a fresh conversation in the same
 * home), entries naming a child's conversation the resume of its root; the file is copied
 * aside first and then replaced atomically, so a failure at any point leaves the original whole.
 */
async function fixRecipe(file: string, recipe: Recipe, report: DoctorReport, home: string, deps: Deps): Promise<void> {
  let k = 0;
  for (const [dir, list] of recipe.dirs) {
    for (const entry of list) {
      const result = report.entries[k++];
      if (!result || result.fix === null || detect(entry.cmd).form !== 'resume') continue;
      const to = result.fix;
      report.fixed.push({ dir, from: entry.cmd, to });
      entry.cmd = to;
      Object.assign(result, { command: to, fix: null });
      if (result.unresumable) {
        result.unresumable = false;
        result.checks = result.checks.filter((c) => c.check !== 'conversation');
        const others = result.checks.filter((c) => c.ok === false);
        if (others.length === 0) Object.assign(result, { verdict: 'ok', why: 'fixed: starts a fresh conversation', todo: '-' });
      } else if (result.verdict !== 'fail') {
        Object.assign(result, { why: `fixed: resumes ${to}`, todo: '-' });
      }
    }
  }
  const backup = `${file}.${stamp(deps.now())}.bak`;
  try {
    copyFileSync(file, backup, constants.COPYFILE_EXCL);
  } catch (error) {
    throw new FleetError(`could not keep a backup of ${file} at ${backup}: ${(error as Error).message}; nothing changed`);
  }
  await writeRecipeAtomic(file, serializeRecipe(recipe, home));
  report.backup = backup;
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** Each task as a save would write it (agent homes included), checked as its own entry. */
async function doctorFleet(tasks: LsRecord[], context: DoctorContext, deps: Deps): Promise<DoctorReport> {
  const recipeTasks: RecipeTask[] = await ask(deps, { op: 'save' });
  if (recipeTasks.length !== tasks.length || recipeTasks.some((t, i) => t.cwd !== tasks[i]?.cwd)) {
    throw new FleetError('the fleet changed while doctor read it; run it again');
  }
  const env = callerEnv(deps);
  const entries = tasks.map((record, i) => {
    const task = recipeTasks[i];
    if (task === undefined) throw new FleetError('the fleet changed while doctor read it; run it again');
    return checkEntry({
      dir: task.cwd, cwd: task.cwd, command: task.cmd, name: task.name,
      env: { ...env, ...(task.env ?? {}) },
      self: { taskId: record.id, paneId: record.paneId },
    }, context);
  });
  const { tmuxLink } = await ask(deps, { op: 'status' });
  return {
    source: 'the running fleet', entries, failed: entries.filter((e) => e.verdict === 'fail').length, fixed: [], backup: null,
    ...(tmuxLink === undefined ? {} : { tmux: tmuxLink }),
  };
}

/** What the supervisor's line to tmux does now, in a sentence (docs/performance.md, the control connection). */
export function tmuxLinkLine(link: NonNullable<ReplyOf<'status'>['tmuxLink']>): string {
  const note = link.note === null ? '' : ` (${link.note})`;
  if (link.connection === 'off') return `tmux: no control connection${note}`;
  if (link.connection === 'down') return `tmux: the control connection is down, being made again${note}: a tmux client per command, changes seen every 2 s`;
  const events = link.events ? 'titles and closed windows come as tmux reports them' : 'titles are read every 2 s';
  return `tmux: one control connection; ${events}; pane streams ${link.streams ? 'available' : 'unavailable'}${note}`;
}
