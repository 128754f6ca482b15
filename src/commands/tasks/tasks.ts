// The small task commands: each sends one request and prints its result.
import { resolve } from 'node:path';
import { joinCommandWords } from '../command-words.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { callerEnv } from '../../deps.js';
import { ask } from '../ask.js';
import { formatTaskTable } from './ls-table.js';

export async function runRun(words: string[], opts: { cwd?: string; name?: string; group?: string; worktree?: string; base?: string; prompt?: string }, deps: Deps): Promise<number> {
  if (words.length === 0) throw new UsageError("run needs a command after '--'");
  if (opts.prompt !== undefined && opts.prompt.trim() === '') throw new UsageError('--prompt is empty');
  if (opts.base !== undefined && opts.worktree === undefined) throw new UsageError('--base goes with --worktree');
  let cwd = resolve(deps.cwd, opts.cwd ?? '.');
  let worktree = {};
  if (opts.worktree !== undefined) {
    await ask(deps, { op: 'status' }); // no fleet: say so before a worktree is made for nothing
    const record = await (await import('../worktrees/worktree-run.js')).worktreeForRun(opts.worktree, opts.base ?? null, cwd, deps);
    cwd = record.path;
    worktree = { worktree: record };
  }
  const result = await ask(deps, {
    op: 'run', command: joinCommandWords(words), cwd, env: callerEnv(deps), name: opts.name ?? null, group: opts.group ?? null, ...worktree,
  });
  deps.stdout.write(`${result.id}\n`);
  if (opts.prompt === undefined) return 0;
  // Its first message once it is ready: send waits for its prompt (or composer) to show.
  const { sendText, sendLine, sendExitCode } = await import('../orchestration/send.js');
  const sent = await sendText(deps, { task: String(result.id), text: opts.prompt });
  deps.stderr.write(`${sendLine(sent)}\n`);
  return sendExitCode(sent);
}

export async function runLs(opts: { json?: boolean }, deps: Deps): Promise<number> {
  const tasks = await ask(deps, { op: 'ls' });
  deps.stdout.write(opts.json ? `${JSON.stringify(tasks, null, 2)}\n` : formatTaskTable(tasks, deps.env.HOME));
  return 0;
}

export async function runRerun(task: string | undefined, opts: { pane?: string; window?: string; socket?: string }, deps: Deps): Promise<number> {
  const given = [task, opts.pane, opts.window].filter((v) => v !== undefined);
  if (given.length > 1) throw new UsageError('rerun takes one of TASK, --pane or --window');
  const ref = given[0] ?? deps.env.TMUX_PANE;
  if (ref === undefined) throw new UsageError('rerun needs a TASK outside tmux (or --pane %N / --window @N)');
  const result = await ask(deps, { op: 'rerun', task: ref }, opts.socket);
  deps.stderr.write(`task ${result.id} rerun\n`);
  return 0;
}

export async function runSimple(op: 'kill' | 'rm' | 'tag', task: string, deps: Deps): Promise<number> {
  await ask(deps, { op, task });
  return 0;
}

export async function runLabel(op: 'rename' | 'group', task: string, value: string, deps: Deps): Promise<number> {
  await ask(deps, op === 'rename' ? { op, task, name: value } : { op, task, group: value });
  return 0;
}

export async function runDown(deps: Deps): Promise<number> {
  await ask(deps, { op: 'down' });
  deps.stderr.write('fleet down\n');
  return 0;
}

/** `next`: shows the next task that needs the user; from the key, silent when there is none. */
export async function runNext(opts: { client?: string; from?: string; socket?: string; fromKey?: boolean }, deps: Deps): Promise<number> {
  const from = opts.from ?? deps.env.TMUX_PANE ?? null;
  const client = opts.client ?? null;
  // A fleet that reaches hosts says so; only then are they asked (hosts-next.ts).
  const status = await ask(deps, { op: 'status' }, opts.socket);
  const hosts = status.hosts ?? [];
  const result: { id: number; host?: string } | null = hosts.length === 0
    ? await ask(deps, { op: 'next', from, client }, opts.socket)
    : await (await import('../hosts/hosts-next.js')).nextAcrossHosts({ from, client, socket: opts.socket }, hosts, status, deps);
  if (result === null) {
    if (!opts.fromKey) deps.stderr.write('no task needs you\n');
    return opts.fromKey ? 0 : 1;
  }
  if (!opts.fromKey) deps.stdout.write(result.host === undefined ? `${result.id}\n` : `${result.host} ${result.id}\n`);
  return 0;
}

/**
 * Called by the pane-died hook of windows made by an older fleetcom (today's hook signals a
 * wait-for channel instead); silent, it only forwards the event.
 */
export async function runPaneDied(pane: string, opts: { socket: string }, deps: Deps): Promise<number> {
  await ask(deps, { op: 'pane-died', pane }, opts.socket);
  return 0;
}
