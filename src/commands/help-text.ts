// What `--help` teaches beyond the declarations of register.ts: the group each command is
// listed under in `fleetcom --help`, its one-line summary there, and the examples its own
// `--help` ends with. One table, so a new command cannot be listed without them
// (test/commands/help.test.ts fails on a visible command missing here).

export const HELP_GROUPS = ['Fleet', 'Tasks', 'Orchestration', 'Sessions', 'Agents', 'Setup'] as const;
export type HelpGroup = (typeof HELP_GROUPS)[number];

export interface CommandHelp {
  group: HelpGroup;
  /** The line in `fleetcom --help`: at most 48 characters, one 80-column line beside the usage. */
  summary: string;
  /** Two or three `[command line, what it does]` pairs. */
  examples: ReadonlyArray<readonly [string, string]>;
}

export const COMMAND_HELP: Readonly<Record<string, CommandHelp>> = {
  up: {
    group: 'Fleet',
    summary: 'start the fleet (here, or in a new tmux session)',
    examples: [
      ['fleetcom up', 'inside tmux: this pane shows the dashboard'],
      ['fleetcom up --headless work', "no dashboard; load the saved session 'work'"],
      ['fleetcom up --detach --tmux-session agents', 'outside tmux: start it, attach later'],
    ],
  },
  down: {
    group: 'Fleet',
    summary: 'stop every task and the supervisor',
    examples: [
      ['fleetcom save work && fleetcom down', 'keep a recipe, then stop everything'],
      ['fleetcom down', 'stop every task, close the windows'],
    ],
  },
  ls: {
    group: 'Fleet',
    summary: 'list tasks with their state and conversation ids',
    examples: [
      ['fleetcom ls', 'one line a task'],
      ['fleetcom ls --json', 'one record a task, for scripts'],
      ['fleetcom ls --all-hosts', 'this machine and every configured host'],
    ],
  },
  run: {
    group: 'Tasks',
    summary: 'add a task to the running fleet',
    examples: [
      ['fleetcom run -- claude', 'an agent in a window of its own'],
      ["fleetcom run --cwd ~/src/api --name api -- 'npm run dev'", 'a server, named'],
      ['fleetcom run --prompt "fix the flaky test" -- claude', 'an agent, given its first message'],
    ],
  },
  rerun: {
    group: 'Tasks',
    summary: 'rerun a task; an agent resumes its conversation',
    examples: [
      ['fleetcom rerun 3', 'task 3 again: claude --resume <its id>'],
      ['fleetcom rerun --pane %12', 'the task in tmux pane %12'],
    ],
  },
  kill: {
    group: 'Tasks',
    summary: 'stop a running task (SIGTERM, SIGKILL after 2 s)',
    examples: [
      ['fleetcom kill 3', 'task 3'],
      ['fleetcom kill %12', 'the task in tmux pane %12'],
    ],
  },
  rm: {
    group: 'Tasks',
    summary: 'kill a task, close its window, forget it',
    examples: [
      ['fleetcom rm 3', 'task 3'],
      ['fleetcom rm @7', 'the task in tmux window @7'],
      ['fleetcom rm 3 --worktree --delete-branch', 'and its clean worktree, its branch if merged'],
    ],
  },
  diff: {
    group: 'Tasks',
    summary: "a worktree task's change against its base",
    examples: [
      ['fleetcom diff 3', 'the patch, untracked files included'],
      ['fleetcom diff 3 --stat', 'files and lines changed'],
    ],
  },
  finish: {
    group: 'Tasks',
    summary: "merge a worktree task's branch, clean up",
    examples: [
      ['fleetcom finish 3 --dry-run', 'what it would check and do, nothing changed'],
      ['fleetcom finish 3 --squash --commit "last touches"', 'commit, squash into its base, clean up'],
      ['fleetcom finish 3 --pr', 'push and open a pull request; the task goes on'],
    ],
  },
  worktrees: {
    group: 'Tasks',
    summary: 'list the git worktrees fleetcom made',
    examples: [
      ['fleetcom worktrees', 'each with its task, branch and state'],
      ['fleetcom worktrees --prune', 'remove those unused, clean and merged'],
    ],
  },
  trust: {
    group: 'Setup',
    summary: "trust a repository's worktree setup script",
    examples: [
      ['fleetcom trust ~/src/api', 'run its .fleetcom/worktree-setup in new worktrees'],
      ['fleetcom trust .', "this checkout's script (after reading it)"],
    ],
  },
  rename: {
    group: 'Tasks',
    summary: "set a task's display name",
    examples: [
      ['fleetcom rename 3 reviewer', 'task 3 shows as reviewer'],
      ["fleetcom rename 3 ''", 'back to its command'],
    ],
  },
  group: {
    group: 'Tasks',
    summary: "set a task's custom group",
    examples: [
      ['fleetcom group 3 backend', "task 3 in the group 'backend'"],
      ["fleetcom group 3 ''", 'no group'],
    ],
  },
  tag: {
    group: 'Tasks',
    summary: 'toggle the "in use" tag of a task',
    examples: [
      ['fleetcom tag 3', 'tag task 3 (again: untag it)'],
      ['fleetcom tag %12', 'the task in tmux pane %12'],
    ],
  },
  save: {
    group: 'Sessions',
    summary: 'save the fleet as a recipe of resume commands',
    examples: [
      ['fleetcom save work', '~/.config/fleetcom/sessions/work.json'],
      ['fleetcom save --output ./fleet.json', 'a file of your choice'],
      ['fleetcom save work --all-hosts', "with every host's tasks (docs/hosts.md)"],
    ],
  },
  load: {
    group: 'Sessions',
    summary: "start a saved session's tasks in the fleet",
    examples: [
      ['fleetcom load work', 'a saved session by name'],
      ['fleetcom load ./fleet.json', 'a file; its hosts\' parts go to their hosts'],
      ['fleetcom load --verbose work', 'every entry not started, one line each'],
    ],
  },
  sessions: {
    group: 'Sessions',
    summary: 'list saved sessions and recovery snapshots',
    examples: [
      ['fleetcom sessions', 'newest first'],
      ['fleetcom sessions --json', 'one document, for scripts'],
    ],
  },
  recover: {
    group: 'Sessions',
    summary: "load a lost fleet's newest recovery snapshot",
    examples: [
      ['fleetcom recover', 'the newest unclosed snapshot'],
      ['fleetcom recover 20261129-193005-4242', 'one that fleetcom sessions lists'],
      ['fleetcom recover --json', 'what started and what did not, as JSON'],
    ],
  },
  doctor: {
    group: 'Sessions',
    summary: 'check a saved session before starting it',
    examples: [
      ['fleetcom doctor work', "will 'work' resume what it says?"],
      ['fleetcom doctor --verbose work', 'a row for every entry, not one per reason'],
      ['fleetcom doctor --fix ./fleet.json', 'gone conversations start fresh (backup kept)'],
    ],
  },
  adopt: {
    group: 'Agents',
    summary: 'take over agents you started by hand in tmux',
    examples: [
      ['fleetcom adopt', 'list them: what each would become, or why not'],
      ['fleetcom adopt %3 @5', 'make the agents in pane %3 and window @5 tasks'],
      ['fleetcom adopt --all', 'every agent pane that can be adopted'],
    ],
  },
  history: {
    group: 'Agents',
    summary: "every agent's past conversations",
    examples: [
      ['fleetcom history', "this directory's (and its worktrees'), newest first"],
      ['fleetcom history --all --search "rate limit"', 'every directory, with a snippet'],
      ['fleetcom history --agent codex --json', 'one agent, for scripts'],
    ],
  },
  resume: {
    group: 'Agents',
    summary: 'bring a past conversation back as a task',
    examples: [
      ['fleetcom resume 019f5453', 'by a prefix of its id, in its own directory'],
      ['fleetcom resume 019f5453 --name review', 'the new task named'],
    ],
  },
  next: {
    group: 'Agents',
    summary: 'go to the next task that needs you',
    examples: [
      ['fleetcom next', 'a permission first, then the longest waiting'],
      ['fleetcom next --client /dev/pts/3', 'show it in that tmux client'],
    ],
  },
  explain: {
    group: 'Agents',
    summary: 'how a command would be instrumented and resumed',
    examples: [
      ['fleetcom explain -- claude', 'what fleetcom adds, where the id comes from'],
      ['fleetcom explain --json --id 019f5453-de22-7240-b2e5-0d32692aa6d9 -- codex', 'its resume command'],
    ],
  },
  send: {
    group: 'Orchestration',
    summary: 'type a message into an agent, confirmed',
    examples: [
      ['fleetcom send 3 "run the tests and fix what fails"', 'once task 3 waits; prints its turn'],
      ['fleetcom send 3 --file task.md --json', 'a file as one message, the verdict as JSON'],
      ['git diff | fleetcom send 3 -', 'stdin as the message'],
    ],
  },
  wait: {
    group: 'Orchestration',
    summary: "wait for turns' ends, for you, or for exits",
    examples: [
      ['fleetcom wait 3', "until task 3's turn ends"],
      ['fleetcom wait --any --until needs-you 1 2 3 4 5', 'until one of five needs you; prints it'],
      ['fleetcom wait 3 --turn 2 --timeout 600', 'until turn 2 ended, at most 10 minutes'],
    ],
  },
  output: {
    group: 'Orchestration',
    summary: "an agent's reply, from its own record",
    examples: [
      ['fleetcom output 3', "the reply of task 3's last turn"],
      ['fleetcom output 3 --turn 2 --json', 'turn 2, with where it came from'],
      ['fleetcom output 3 --screen', "the pane's text instead, said to be that"],
    ],
  },
  events: {
    group: 'Orchestration',
    summary: "the fleet's transitions, as they happen",
    examples: [
      ['fleetcom events', 'one line per transition until the fleet goes down'],
      ['fleetcom events --json --task 3', "task 3's, for a script"],
      ['fleetcom events --all-hosts', 'every configured host too'],
      ],
    },
  mcp: {
    group: 'Orchestration',
    summary: 'serve the fleet to a lead agent over MCP',
    examples: [
      ['claude mcp add --scope user fleetcom -- fleetcom mcp', "claude's tools mcp__fleetcom__ls, run, send…"],
      ['fleetcom mcp --config codex >> ~/.codex/config.toml', "codex's settings for it"],
      ['fleetcom mcp --config claude > .mcp.json', "a project's MCP servers for claude"],
    ],
  },
  skill: {
    group: 'Orchestration',
    summary: 'a guide teaching a lead agent to use fleetcom',
    examples: [
      ['fleetcom skill > ~/.claude/skills/fleetcom/SKILL.md', "claude's skill"],
      ['fleetcom skill >> AGENTS.md', "codex's and others' instructions"],
    ],
  },
  config: {
    group: 'Setup',
    summary: 'print the settings in effect, and their sources',
    examples: [
      ['fleetcom config', 'each setting, its value and its source'],
      ['fleetcom config --json', 'one document'],
    ],
  },
  web: {
    group: 'Fleet',
    summary: 'the fleet in a browser or on a phone',
    examples: [
      ['fleetcom web', 'serve on 127.0.0.1:8470; open the printed URL (token in its #fragment)'],
      ['fleetcom web --allowed-host box.tailnet.ts.net', 'behind `tailscale serve` (HTTPS inside your tailnet)'],
      ['fleetcom web --read-only --rotate-token', 'look, never type; old links signed out'],
    ],
  },
  hosts: {
    group: 'Setup',
    summary: 'check what each host needs to carry a fleet',
    examples: [
      ['fleetcom hosts check', 'ssh, fleetcom, tmux and the agents on each host'],
      ['fleetcom hosts check --hosts gpu', 'just gpu (any command: fleetcom --host gpu …)'],
    ],
  },
  keys: {
    group: 'Setup',
    summary: 'print tmux.conf lines for the bindings up makes',
    examples: [
      ['fleetcom keys', 'the lines for the rerun and next keys'],
      ['fleetcom keys --rerun-key C-r >> ~/.tmux.conf', 'another key, kept in tmux.conf'],
    ],
  },
  completion: {
    group: 'Setup',
    summary: 'print a completion script for bash, zsh or fish',
    examples: [
      ['source <(fleetcom completion bash)', 'in ~/.bashrc'],
      ['source <(fleetcom completion zsh)', 'in ~/.zshrc, after compinit'],
      ['fleetcom completion fish | source', 'in ~/.config/fish/config.fish'],
    ],
  },
};

/** Help is read in an 80-column terminal. */
const COLUMNS = 80;

/**
 * An `Examples:` block: the command lines aligned, each followed by what it does, or by that
 * on a line of its own where the two would not fit in 80 columns.
 */
export function examplesBlock(examples: CommandHelp['examples']): string {
  const fits = ([line, what]: readonly [string, string], pad: number) => 2 + pad + 5 + what.length <= COLUMNS && line.length <= pad;
  const pad = Math.max(0, ...examples.filter(([line, what]) => fits([line, what], line.length)).map(([line]) => line.length));
  const rows = examples.map(([line, what]) => (fits([line, what], pad) ? `  ${line.padEnd(pad)}   # ${what}` : `  ${line}\n      # ${what}`));
  return `Examples:\n${rows.join('\n')}`;
}
