// The MCP server's tools, each a command line of the CLI run with --json: the server knows the
// CLI's words and its JSON, nothing of the fleet's inside, so a tool acts as the command does
// (--host included). Pure: the words each tool's input makes, and the bounds of each call.
import * as z from 'zod';

/** What an MCP client waits for a tool call at most: every call answers within it. */
export const CALL_DEADLINE_MS = 30_000;
/** The longest a send or wait may last inside one call: the rest of the deadline is for its start and answer. */
export const MAX_WAIT_SECONDS = 25;

const task = z.union([z.number().int().positive(), z.string().min(1)]).describe('a task id (3), a tmux pane (%12) or window (@7)');
const host = z.string().min(1).optional().describe("a configured host's name: the command runs on that host's fleet (as --host)");
// More than MAX_WAIT_SECONDS is taken as MAX_WAIT_SECONDS (a model asking for ten minutes gets
// the state at the bound, to ask again), not refused.
const waitSeconds = z.number().positive().optional();

export const INPUTS = {
  ls: { allHosts: z.boolean().optional().describe("also every configured host's tasks"), host },
  run: {
    command: z.string().min(1).describe("the command line, run by the task's shell: an agent ('claude', 'codex', …) or any command"),
    cwd: z.string().min(1).optional().describe("its working directory (default: the server's)"),
    name: z.string().optional().describe('a display name'),
    group: z.string().optional().describe('a group'),
    worktree: z.string().min(1).optional().describe('run it in a git worktree of this branch'),
    prompt: z.string().min(1).optional().describe("an agent's first message, sent once it is ready and confirmed as send confirms it"),
    promptTimeoutSeconds: waitSeconds.describe(`how long the first message may wait for the agent (default and most: ${MAX_WAIT_SECONDS})`),
    host,
  },
  send: {
    task,
    text: z.string().min(1).describe('the message: one message, however many lines'),
    now: z.boolean().optional().describe("type it even while the agent works (its own queue or steer takes it); by default it waits until the agent needs input"),
    timeoutSeconds: waitSeconds.describe(`give up after this long (default and most: ${MAX_WAIT_SECONDS}); verdict busy means: send again later`),
    host,
  },
  wait: {
    tasks: z.array(task).min(1).describe('the tasks to wait on'),
    mode: z.enum(['any', 'all']).optional().describe('until any one of them, or all of them (default all), meet the condition'),
    until: z.enum(['waiting', 'needs-you', 'exited']).optional().describe("waiting: a turn ended (default); needs-you: waiting, a question or a permission; exited"),
    turn: z.number().int().positive().optional().describe('until turn n has ended'),
    timeoutSeconds: waitSeconds.describe(`how long this call waits (default and most: ${MAX_WAIT_SECONDS}); when it is not met by then it answers the state: call wait again`),
    host,
  },
  output: {
    task,
    turn: z.number().int().positive().optional().describe('the reply of turn n (default: the last)'),
    screen: z.boolean().optional().describe("the pane's text instead of the agent's reply (not the agent's record)"),
    host,
  },
  history: {
    cwd: z.string().min(1).optional().describe("this directory's conversations (default: the server's)"),
    all: z.boolean().optional().describe('every directory'),
    agent: z.string().min(1).optional().describe('only this agent'),
    search: z.string().min(1).optional().describe('only conversations holding this text'),
    limit: z.number().int().positive().optional().describe('at most this many'),
  },
} as const;

export type ToolName = keyof typeof INPUTS;
export type ToolInput<T extends ToolName> = z.infer<z.ZodObject<(typeof INPUTS)[T]>>;

export const DESCRIPTIONS: Readonly<Record<ToolName, string>> = {
  ls: "The fleet's tasks (fleetcom ls --json): id, state, attention (working, waiting, permission), turn, conversation id, directory.",
  run: 'Start a task (fleetcom run): an agent or a command in a window of its own; with prompt, its first message, confirmed. Answers {task, send}.',
  send: "Send one message to an agent task (fleetcom send --json); it waits until the agent needs input. verdict submitted = the agent took it (turn = the turn it started); busy, blocked, typed_not_submitted, exited = it did not.",
  wait: `Wait until tasks' turns end, they need you, or they exit (fleetcom wait --json). Answers within ${MAX_WAIT_SECONDS} s: met false with timedOut true means still pending, call wait again.`,
  output: "An agent's reply of its last (or nth) turn, from the agent's own record (fleetcom output --json): text, turn, source.",
  history: "Every agent's past conversations, newest first (fleetcom history --json).",
};

const seconds = (value: number | undefined) => Math.min(Math.max(value ?? MAX_WAIT_SECONDS, 0.1), MAX_WAIT_SECONDS).toFixed(1);
const hostWords = (h: string | undefined) => (h === undefined ? [] : ['--host', h]);
const flag = (on: boolean | undefined, word: string) => (on ? [word] : []);
const valued = (value: string | number | undefined, word: string) => (value === undefined ? [] : [word, String(value)]);

/** The words of each tool's command line (operands after `--`, so a text or a task can never read as an option). */
export const ARGV = {
  ls: (i: ToolInput<'ls'>) => ['ls', '--json', ...flag(i.allHosts, '--all-hosts'), ...hostWords(i.host)],
  run: (i: ToolInput<'run'>) => [
    'run', ...valued(i.cwd, '--cwd'), ...valued(i.name, '--name'), ...valued(i.group, '--group'), ...valued(i.worktree, '--worktree'), ...hostWords(i.host), '--', i.command,
  ],
  send: (i: ToolInput<'send'>) => ['send', '--json', '--timeout', seconds(i.timeoutSeconds), ...flag(i.now, '--now'), ...hostWords(i.host), '--', String(i.task), i.text],
  wait: (i: ToolInput<'wait'>) => [
    'wait', '--json', '--timeout', seconds(i.timeoutSeconds), ...(i.mode === undefined ? [] : [`--${i.mode}`]), ...valued(i.until, '--until'), ...valued(i.turn, '--turn'),
    ...hostWords(i.host), '--', ...i.tasks.map(String),
  ],
  output: (i: ToolInput<'output'>) => ['output', '--json', ...valued(i.turn, '--turn'), ...flag(i.screen, '--screen'), ...hostWords(i.host), '--', String(i.task)],
  history: (i: ToolInput<'history'>) => [
    'history', '--json', ...valued(i.cwd, '--cwd'), ...flag(i.all, '--all'), ...valued(i.agent, '--agent'), ...valued(i.search, '--search'), ...valued(i.limit, '--limit'),
  ],
} satisfies { [T in ToolName]: (input: ToolInput<T>) => string[] };

/** The first message of `run`, as a send of the task it started. */
export function promptArgv(input: ToolInput<'run'>, taskId: string): string[] | null {
  if (input.prompt === undefined) return null;
  return ARGV.send({ task: taskId, text: input.prompt, timeoutSeconds: input.promptTimeoutSeconds, host: input.host });
}

/**
 * A lone `-` is standard input to several commands (send's text, load's recipe, and any
 * command sent to a host), and the server's standard input is the protocol: refused.
 */
export function stdinWord(argv: readonly string[]): boolean {
  return argv.includes('-');
}
