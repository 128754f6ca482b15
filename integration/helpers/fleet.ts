// A running fleet inside a sandbox: `fleetcom up --headless` in the first window of a tmux
// session `fleet` on the sandbox's private server, and the built CLI to talk to it.
//
//   const sb = await useSandbox();
//   const fleet = await startFleet(sb);
//   const id = (await fleet.cli('run', '--', 'claude')).stdout.trim();
//   const task = await fleet.task(id);           // its `ls --json` record
import type { LsRecord } from '../../src/control/protocol.js';
import { cliPath, runCli, type CliResult } from './cli.js';
import { paneText } from './pane.js';
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

export interface Fleet {
  /** tmux session id (`$N`) of the fleet. */
  session: string;
  /** The supervisor's pane, whose text is its log. */
  supervisorPane: string;
  /** Runs the built CLI with the sandbox env (outside tmux) in `cwd` (default: the sandbox dir). */
  cli(...args: string[]): Promise<CliResult>;
  cliIn(cwd: string, env: Record<string, string>, ...args: string[]): Promise<CliResult>;
  /** `ls --json`, parsed (throws on failure). */
  ls(): Promise<LsRecord[]>;
  task(id: string | number): Promise<LsRecord>;
  /** Waits until the task's record satisfies `predicate`; returns it. */
  waitTask(id: string | number, predicate: (t: LsRecord) => boolean, what: string, timeout?: number): Promise<LsRecord>;
  /** Adds a task; returns its id. */
  run(...words: string[]): Promise<string>;
  log(): Promise<string>;
}

export interface StartFleetOptions {
  args?: string[];
  env?: Record<string, string>;
  name?: string;
  /** false: `up` without --headless, so the supervisor's pane shows the dashboard. */
  headless?: boolean;
  /** What the CLI runs under (runCli's wrap), e.g. nsenter into the fleet's mount namespace. */
  wrap?: readonly string[];
  /**
   * Run `up` as the child of a shell, as a user's `fleetcom up` typed in a pane is: tmux
   * continues a pane's own process at once when it stops (server_child_stopped), so only a
   * supervisor below the pane's process stays stopped after a SIGSTOP or Ctrl-Z.
   */
  underShell?: boolean;
  /**
   * PATH of the supervisor (and of the CLI, unless `env` names one): tmux 3.3a gives a new
   * pane the PATH of the tmux client that made it, whatever `-e PATH=` says.
   */
  path?: string;
}

export async function startFleet(sb: Sandbox, opts: StartFleetOptions = {}): Promise<Fleet> {
  const env = { ...sb.env, ...(opts.path === undefined ? {} : { PATH: opts.path }), ...opts.env };
  const name = opts.name ?? 'fleet';
  const up = [process.execPath, cliPath, 'up', ...(opts.headless === false ? [] : ['--headless']), ...(opts.args ?? [])];
  const argv = opts.underShell ? ['/bin/sh', '-c', '"$@"; exit $?', 'sh', ...up] : up;
  const session = await sb.runner.runSequence([
    ['new-session', '-d', '-P', '-F', '#{session_id}', '-s', name, '-x', '160', '-y', '48', '-c', sb.dir,
      ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), '--', ...argv],
    ['set-option', '-w', '-t', `${name}:0`, 'remain-on-exit', 'on'],
  ], { path: opts.path });
  const sessionId = session.trim();
  const supervisorPane = (await sb.tmux('list-panes', '-t', `${name}:0`, '-F', '#{pane_id}')).trim();
  const cliIn = (cwd: string, e: Record<string, string>, ...args: string[]) => runCli(args, { env: e, cwd, wrap: opts.wrap });
  const cli = (...args: string[]) => cliIn(sb.dir, env, ...args);
  const ls = async () => {
    const r = await cli('ls', '--json');
    if (r.exitCode !== 0) throw new Error(`ls failed (${r.exitCode}): ${r.stderr}`);
    return JSON.parse(r.stdout) as LsRecord[];
  };
  const task = async (id: string | number) => {
    const t = (await ls()).find((x) => x.id === Number(id));
    if (!t) throw new Error(`no task ${id}`);
    return t;
  };
  const log = () => paneText(sb, supervisorPane);
  await waitFor(async () => (await cli('ls', '--json')).exitCode === 0, { what: 'the fleet to answer' }).catch(async (e: Error) => {
    throw new Error(`${e.message}\n--- supervisor ---\n${await log().catch(() => '(gone)')}`);
  });
  return {
    session: sessionId,
    supervisorPane,
    cli,
    cliIn,
    ls,
    task,
    waitTask: (id, predicate, what, timeout) =>
      waitFor(async () => {
        const t = await task(id);
        return predicate(t) ? t : false;
      }, { what: `task ${id}: ${what}`, timeout }),
    async run(...words: string[]) {
      const r = await cli('run', '--', ...words);
      if (r.exitCode !== 0) throw new Error(`run failed (${r.exitCode}): ${r.stderr}`);
      return r.stdout.trim();
    },
    log,
  };
}
