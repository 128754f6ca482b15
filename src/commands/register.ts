// Declares every command's arguments and options; actions only dispatch to run<Name>.
import { Option, type Command } from 'commander';
import { GROUP_BY } from '../config/values.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../errors.js';
import type { CommandLine } from '../mcp/captured.js';
import { CONFIG_AGENTS } from '../mcp/client-config.js';

/** Receives the chosen command's run; `main` awaits it after parsing. */
export type Dispatch = (run: () => Promise<number>) => void;

// Each command's module is imported when that command runs, so `--version`, `--help` and the
// small commands do not load the supervisor, the dashboard or chokidar (cold start).
const adopt = () => import('./tasks/adopt.js');
const completion = () => import('./completion.js');
const config = () => import('./fleet/config.js');
const doctor = () => import('./doctor/doctor.js');
const explain = () => import('./tasks/explain.js');
const finish = () => import('./worktrees/finish.js');
const hostsLs = () => import('./hosts/hosts-ls.js');
const hostsSave = () => import('./hosts/hosts-save.js');
const history = () => import('./history/history.js');
const hosts = () => import('./hosts/hosts.js');
const keys = () => import('./fleet/keys.js');
const load = () => import('./fleet/load.js');
const resume = () => import('./history/resume.js');
// save runs from its own one-file bundle (save-client.ts).
const save = () => import('./fleet/save-client.js');
const sessions = () => import('./fleet/sessions.js');
const tasks = () => import('./tasks/tasks.js');
const up = () => import('./fleet/up.js');
const web = () => import('./web/web.js');
const worktreeRm = () => import('./worktrees/worktree-rm.js');
const worktrees = () => import('./worktrees/worktrees.js');
const send = () => import('./orchestration/send.js');
const wait = () => import('./orchestration/wait.js');
const output = () => import('./orchestration/output.js');
const events = () => import('./orchestration/events.js');
const mcp = () => import('./orchestration/mcp.js');
const skill = () => import('./orchestration/skill.js');

function wholeSeconds(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 86_400) throw new UsageError(`--idle-seconds ${value}: expected a whole number of seconds from 1 to 86400`);
  return Number(value);
}

/** `commandLine`: the program's own entry for one command line (program.ts), which the MCP server's tools run. */
export function registerCommands(program: Command, deps: Deps, dispatch: Dispatch, commandLine: CommandLine): void {
  program
    .command('up')
    .description('start the fleet: inside tmux in this pane, outside tmux in a new tmux session')
    .argument('[session]', 'a saved session (name or path) to load at start')
    .option('--headless', 'no dashboard: one log line per event on stderr (inside tmux only)')
    .option('--detach', 'outside tmux: print the tmux session name instead of attaching')
    .option('--tmux-session <name>', 'outside tmux: the tmux session to create (default fleetcom)')
    .option('--tmux-socket <path>', 'outside tmux: the tmux server socket to use')
    .option('--rerun-key <key>', "the prefix-table key that reruns a task ('none' disables; default r or config.json)")
    .option('--idle-seconds <n>', 'seconds without output before a task shows as idle (default 10 or config.json)', wholeSeconds)
    .addOption(new Option('--group-by <how>', "the dashboard's grouping at start (default state or config.json)").choices(GROUP_BY))
    .option('--next-key <key>', "the prefix-table key that goes to the next task needing you ('none' disables; default N or config.json)")
    .option('--no-bell', "no terminal bell in a task's window when its turn ends or it asks for a permission")
    .option('--adopt', 'at start, adopt every pane of its tmux session that runs an agent you started by hand (see fleetcom adopt)')
    .option('--notify-command <cmd>', 'run by /bin/sh when a task starts waiting for you, with FLEETCOM_TASK_ID, FLEETCOM_TASK_LABEL, FLEETCOM_ATTENTION, FLEETCOM_MESSAGE in its environment (or config.json)')
    .option('--hosts <list>', "the hosts whose tasks the dashboard shows and next goes to, comma-separated (default: config.json hosts; '' none)")
    .action((session: string | undefined, opts) => dispatch(async () => (await up()).runUp(session, opts, deps)));

  program
    .command('run')
    .description('add a task to the running fleet')
    .argument('<cmd...>', 'the command, after --')
    .option('--cwd <dir>', 'working directory (default: the current one)')
    .option('--name <name>', 'display name')
    .option('--group <group>', 'custom group')
    .option('--worktree <branch>', "run in a git worktree of that branch of --cwd's repository (made, or shared with the branch's other tasks)")
    .option('--base <ref>', 'with --worktree: the commit a new branch starts from (default: the repository\'s HEAD)')
    .option('--prompt <text>', "an agent's first message, sent once it is ready and confirmed as send confirms it (exit 1 unless it took it)")
    .passThroughOptions()
    .action((words: string[], opts) => dispatch(async () => (await tasks()).runRun(words, opts, deps)));

  program
    .command('send')
    .description('type one message into an agent task and wait until the agent says it took it')
    .argument('<task>', 'task id, %pane or @window')
    .argument('[text...]', 'the message (its words joined by spaces), or - to read it from stdin')
    .option('--file <file>', 'read the message from this file')
    .option('--now', 'type it even while the agent works (its own queue or steer takes it); by default send waits until it needs input')
    .option('--timeout <seconds>', 'give up after this long, the wait for the task included (default 60)')
    .option('--json', 'print one JSON document: task, verdict, via, turn, conversationId, ms, reason')
    .action((task: string, words: string[], opts) => dispatch(async () => (await send()).runSend(task, words, opts, deps)));

  program
    .command('wait')
    .description("wait until tasks' turns end, they need you, or they exit (from their own signals)")
    .argument('<tasks...>', 'task ids, %panes or @windows')
    .option('--any', 'until one of them meets the condition')
    .option('--all', 'until every one does (the default)')
    .option('--until <state>', 'waiting (a turn ended; the default), needs-you (waiting, a question or a permission) or exited')
    .option('--turn <n>', 'until turn n has ended (with needs-you: turn n or later needs you)')
    .option('--timeout <seconds>', 'give up after this long (exit 1, saying what each task is doing)')
    .option('--json', 'print one JSON document: met, timedOut, why and each task\'s state')
    .action((tasks: string[], opts) => dispatch(async () => (await wait()).runWait(tasks, opts, deps)));

  program
    .command('output')
    .description("print an agent's reply of its last (or nth) turn, from its own record")
    .argument('<task>', 'task id, %pane or @window')
    .option('--turn <n>', 'the reply of turn n of its current run')
    .option('--json', 'print one JSON document: task, conversationId, turn, text, source, from')
    .option('--screen', "the pane's text instead (its screen and history: not the agent's record)")
    .action((task: string, opts) => dispatch(async () => (await output()).runOutput(task, opts, deps)));

  program
    .command('events')
    .description('print one line per transition of the fleet as it happens, until it goes down')
    .option('--json', 'one JSON document a line')
    .option('--task <task>', "only this task's transitions")
    .option('--all-hosts', "also every configured host's (config hosts), each line with its host")
    .option('--hosts <list>', 'with --all-hosts: these hosts instead (comma-separated)')
    .action((opts) => dispatch(async () => (await events()).runEvents(opts, deps)));

  program
    .command('ls')
    .description('list tasks with their conversation ids')
    .option('--json', 'print an array of task records')
    .option('--all-hosts', 'also every configured host\'s tasks (config hosts), each record with its host')
    .option('--hosts <list>', 'with --all-hosts: these hosts instead (comma-separated)')
    .action((opts) => dispatch(async () => (opts.allHosts || opts.hosts !== undefined ? (await hostsLs()).runHostsLs(opts, deps) : (await tasks()).runLs(opts, deps))));

  program
    .command('rerun')
    .description('rerun a finished task, into the same conversation for an agent')
    .argument('[task]', 'task id, %pane or @window (default: the current pane)')
    .option('--pane <pane>', 'the task in this tmux pane')
    .option('--window <window>', 'the task in this tmux window')
    .addOption(new Option('--socket <path>').hideHelp())
    // Changes nothing: the rerun key of an older fleetcom passed it, and a fleet whose key was
    // bound before an upgrade must still rerun when the key is pressed.
    .addOption(new Option('--from-key').hideHelp())
    .action((task: string | undefined, opts) => dispatch(async () => (await tasks()).runRerun(task, opts, deps)));

  program
    .command('adopt')
    .description('make agents you started by hand in tmux panes tasks, into their own conversations (without a target: list them)')
    .argument('[targets...]', 'panes (%N) or windows (@N) of the fleet\'s tmux server')
    .option('--all', 'adopt every pane that runs an agent and can be adopted')
    .option('--json', 'print one JSON document')
    .action((targets: string[], opts) => dispatch(async () => (await adopt()).runAdopt(targets, opts, deps)));

  program
    .command('next')
    .description('go to the next task that needs you (a permission first, then the longest waiting)')
    .option('--client <name>', 'the tmux client to show it in (default: this one)')
    .addOption(new Option('--from <task>').hideHelp())
    .addOption(new Option('--socket <path>').hideHelp())
    .addOption(new Option('--from-key').hideHelp())
    .action((opts) => dispatch(async () => (await tasks()).runNext(opts, deps)));

  for (const [name, description] of [
    ['kill', 'stop a running task (SIGTERM, then SIGKILL after 2 s)'],
    ['tag', 'toggle the "in use" tag of a task'],
  ] as const) {
    program
      .command(name)
      .description(description)
      .argument('<task>', 'task id, %pane or @window')
      .action((task: string) => dispatch(async () => (await tasks()).runSimple(name, task, deps)));
  }

  program
    .command('rm')
    .description('kill a task if running, close its window and forget it (its worktree stays unless --worktree)')
    .argument('<task>', 'task id, %pane or @window')
    .option('--worktree', 'also remove its git worktree: only when no other task uses it and nothing in it is uncommitted')
    .option('--force', 'with --worktree: save uncommitted files under refs/fleetcom/wip/<branch>/<time> first, then remove')
    .option('--delete-branch', "with --worktree: also delete the branch, only when its work is in its base branch")
    .action((task: string, opts) => dispatch(async () => (await worktreeRm()).runRm(task, opts, deps)));

  program
    .command('diff')
    .description("show a worktree task's change against the commit its branch was based on, untracked files included")
    .argument('<task>', 'task id, %pane or @window')
    .option('--stat', 'files and lines changed instead of the patch')
    .action((task: string, opts) => dispatch(async () => (await worktrees()).runDiff(task, opts, deps)));

  program
    .command('finish')
    .description("merge a worktree task's branch into its target (or open a pull request), then remove the task, its worktree and its branch; every check first, nothing deleted after a failed step")
    .argument('<task>', 'task id, %pane or @window')
    .option('--merge', 'git merge the branch into the target (the default)')
    .option('--squash', "one commit on the target whose message lists the branch's commits")
    .option('--rebase', 'rebase the branch onto the target, then fast-forward the target')
    .option('--pr', "push the branch and open a pull request with gh (else print the page that opens one); the task and its worktree stay")
    .option('--into <branch>', 'the target branch (default: the branch the worktree was based on, else the default branch)')
    .option('--commit <message>', "commit the worktree's uncommitted files first (without it, a dirty worktree is refused)")
    .option('--keep-worktree', 'keep the worktree (and so its branch) after the merge')
    .option('--keep-branch', 'keep the branch after the merge')
    .option('--dry-run', 'print the plan and change nothing')
    .option('--json', 'print the plan and the result as one JSON document')
    .action((task: string, opts) => dispatch(async () => (await finish()).runFinish(task, opts, deps)));

  program
    .command('worktrees')
    .description('list the git worktrees fleetcom made, with their task, branch and state')
    .option('--json', 'print one JSON document')
    .option('--prune', 'remove those no task uses, clean and whose branch is merged (any doubt keeps one)')
    .action((opts) => dispatch(async () => (await worktrees()).runWorktrees(opts, deps)));

  program
    .command('trust')
    .description("trust the repository's .fleetcom/worktree-setup as it is now: new worktrees of it run it")
    .argument('<repo>', 'a checkout of the repository (its script is the one trusted)')
    .action((repo: string) => dispatch(async () => (await worktrees()).runTrust(repo, deps)));

  program
    .command('rename')
    .description("set a task's display name")
    .argument('<task>', 'task id, %pane or @window')
    .argument('<name>', 'the new name (empty clears it)')
    .action((task: string, name: string) => dispatch(async () => (await tasks()).runLabel('rename', task, name, deps)));

  program
    .command('group')
    .description("set a task's group")
    .argument('<task>', 'task id, %pane or @window')
    .argument('<group>', 'the group (empty clears it)')
    .action((task: string, group: string) => dispatch(async () => (await tasks()).runLabel('group', task, group, deps)));

  program
    .command('save')
    .description('save the fleet as a session file, agents as their resume commands (works from any shell)')
    .argument('[name]', 'the session name (its file goes in the session directory)')
    .option('--output <file>', 'write the session file here instead')
    .option('--stdout', 'print the session file instead of writing it')
    .option('--force', 'write the file even when the fleet has no tasks')
    .option('--all-hosts', "also every configured host's tasks (config hosts), each as its host's resume command")
    .option('--hosts <list>', 'with --all-hosts: these hosts instead (comma-separated)')
    .action((name: string | undefined, opts) => dispatch(async () => (opts.allHosts || opts.hosts !== undefined ? (await hostsSave()).runHostsSave(name, opts, deps) : (await save()).runSaveApart(name, opts, deps))));

  program
    .command('load')
    .description("spawn a saved session's tasks into the running fleet, with this shell's environment")
    .argument('<session>', 'a session name, or a path (/…, ./…, ../…, ~…, ….json), or - for stdin')
    .option('--verbose', 'one line per entry not started, instead of one line per reason with its count and first entries')
    .option('--json', 'print one JSON document: the tasks started and every entry not started, with why')
    .action((session: string, opts) => dispatch(async () => (await load()).runLoad(session, opts, deps)));

  program
    .command('sessions')
    .description('list saved sessions and recovery snapshots, newest first')
    .option('--json', 'print one JSON document')
    .action((opts) => dispatch(async () => (await sessions()).runSessions(opts, deps)));

  program
    .command('history')
    .description("every agent's past conversations, newest first, from their own stores")
    .option('--cwd <dir>', "this directory's conversations and those of its git worktrees (default: the current directory)")
    .option('--all', 'every directory')
    .option('--agent <name>', 'only this agent (claude, codex, grok, gemini, opencode, qwen, kilo, pi, copilot)')
    .option('--search <text>', "only conversations whose messages hold the text (case-insensitive), with a snippet")
    .option('--limit <n>', 'at most n conversations')
    .option('--json', 'print an array of conversation records')
    .option('--verbose', 'list every store file skipped, and why')
    .action((opts) => dispatch(async () => (await history()).runHistory(opts, deps)));

  program
    .command('resume')
    .description('bring a past conversation back as a task (or show the task that has it open)')
    .argument('<id>', 'a conversation id, or a prefix naming one (as fleetcom history lists them)')
    .option('--name <name>', "the task's display name")
    .action((id: string, opts) => dispatch(async () => (await resume()).runResume(id, opts, deps)));

  program
    .command('recover')
    .description('load the newest recovery snapshot not written by the running fleet (or the one named)')
    .argument('[snapshot]', 'a snapshot as listed by fleetcom sessions, or a path')
    .option('--verbose', 'one line per entry not started, instead of one line per reason with its count and first entries')
    .option('--json', 'print one JSON document: the tasks started and every entry not started, with why')
    .action((snapshot: string | undefined, opts) => dispatch(async () => (await load()).runRecover(snapshot, opts, deps)));

  program
    .command('doctor')
    .description('check a saved session (or the running fleet) before starting it: directories, programs, conversations, and whether one is open elsewhere')
    .argument('[session]', 'a session name, or a path (/…, ./…, ../…, ~…, ….json)')
    .option('--fleet', "check the running fleet's tasks instead")
    .option('--json', 'print one JSON document')
    .option('--fix', 'rewrite entries whose conversation cannot be resumed to the bare agent command, and those naming a codex subagent thread to its root (a backup is kept beside the file)')
    .option('--verbose', 'a row for every entry, instead of the first few of those failing for the same reason and their count')
    .action((session: string | undefined, opts) => dispatch(async () => (await doctor()).runDoctor(session, opts, deps)));

  program
    .command('hosts')
    .description('check what each host needs to carry a fleet: ssh, the same fleetcom, tmux, the agents')
    .argument('[action]', 'check (the only one, the default)')
    .option('--hosts <list>', 'these hosts instead of config hosts (comma-separated)')
    .option('--json', 'print one JSON document')
    .action((action: string | undefined, opts) => dispatch(async () => (await hosts()).runHostsCheck(action, opts, deps)));

  // The remote half of `hosts check`: this machine's facts, for the fleetcom that asks over ssh.
  program
    .command('_host-report', { hidden: true })
    .action(() => dispatch(async () => (await hosts()).runHostReport(deps)));

  program
    .command('web')
    .description('serve the fleet to a browser: live terminals, messages, permissions (token required, loopback by default)')
    .option('--port <n>', 'the port to listen on (default 8470; 0: any free port)')
    .option('--bind <addr>', 'the address to listen on (default 127.0.0.1)')
    .option('--read-only', 'refuse input, messages and resumes: the page only looks')
    .option('--allowed-host <host>', 'a Host name the page may be reached by (a tailnet name behind tailscale serve); repeatable', (value: string, list: string[] = []) => [...list, value])
    .option('--rotate-token', 'make a new token first: every page signed in with the old one is signed out')
    .addOption(new Option('--ping-ms <ms>').hideHelp())
    .addOption(new Option('--poll-ms <ms>').hideHelp())
    .action((opts) => dispatch(async () => (await web()).runWeb(opts, deps)));

  program
    .command('down')
    .description('stop every task, close their windows and stop the supervisor')
    .action(() => dispatch(async () => (await tasks()).runDown(deps)));

  program
    .command('keys')
    .description('print tmux.conf lines equivalent to the bindings up installs')
    .option('--rerun-key <key>', 'the rerun key (default r or config.json)')
    .option('--next-key <key>', 'the key that goes to the next task needing you (default N or config.json)')
    .action((opts) => dispatch(async () => (await keys()).runKeys(opts, deps)));

  program
    .command('mcp')
    .description('serve the fleet to an agent over MCP on stdio: tools ls, run, send, wait, output, history')
    .addOption(new Option('--config <agent>', "print what that agent's settings take to start this server").choices(CONFIG_AGENTS))
    .action((opts) => dispatch(async () => (await mcp()).runMcp(opts, deps, commandLine)));

  program
    .command('skill')
    .description('print a guide that teaches a lead agent to drive the fleet with fleetcom')
    .action(() => dispatch(async () => (await skill()).runSkill(deps)));

  program
    .command('config')
    .description('print the settings up runs with and where each comes from (config.json or default)')
    .option('--json', 'print one JSON object')
    .action((opts) => dispatch(async () => (await config()).runConfig(opts, deps)));

  program
    .command('explain')
    .description('show how a command would be detected, instrumented and resumed (needs no fleet)')
    .argument('<cmd...>', 'the command, after --')
    .option('--json', 'print one JSON object')
    .option('--id <uuid>', 'show the resume command for this conversation id')
    .option('--cwd <dir>', 'the directory the command would run in')
    .passThroughOptions()
    .action((words: string[], opts) => dispatch(async () => (await explain()).runExplain(words, opts, deps)));

  program
    .command('completion')
    .description('print a shell completion script to source (bash, zsh or fish)')
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) => dispatch(async () => (await completion()).runCompletion(shell, deps)));

  // The completion scripts' question: the words after `fleetcom` (after --), the last one
  // being completed; the answer is one `value<TAB>description` a line.
  program
    .command('__complete', { hidden: true })
    .argument('[words...]')
    .action((words: string[]) => dispatch(async () => (await completion()).runComplete(words, program, deps)));

  // Today's pane-died hook only signals a tmux wait-for channel; windows hooked by a supervisor
  // of an older fleetcom still run this command, and an adopting supervisor must hear them.
  program
    .command('_pane-died', { hidden: true })
    .argument('<pane>')
    .requiredOption('--socket <path>')
    .action((pane: string, opts) => dispatch(async () => (await tasks()).runPaneDied(pane, opts, deps)));
}
