// The reply of every control op, as checks with inferred types: the supervisor's dispatch must
// return these types and a client reads each reply through its op's check, so both ends agree
// at compile time and a reply of another shape is refused at run time. Zod-free (shape.ts).
import type { Attention } from '../harness/attention.js';
import { AGENT_HOME_VARS as HOME_VARS, HARNESS_NAMES as NAMES, type AgentHomeVar, type HarnessName } from '../harness/names.js';
import type { IdSource } from '../harness/types.js';
import { worktreeRecordProblem, type WorktreeRecord } from '../worktree-record.js';
import { bool, int, list, nothing, nullable, object, oneOf, optional, record, ShapeError, str, type Check, type Checked } from './shape.js';

const HARNESS_NAMES = Object.fromEntries(NAMES.map((name) => [name, true])) as Record<HarnessName, true>;
const ID_SOURCES: Record<Exclude<IdSource, 'correlation'>, true> = { 'exit-hint': true, capture: true, process: true, pinned: true };
const ATTENTIONS: Record<Attention, true> = { working: true, waiting: true, permission: true };

/** A worktree record as read back (worktree-record.ts's check). */
const worktreeRecord: Check<WorktreeRecord> = (v, path = '') => {
  const problem = worktreeRecordProblem(v);
  if (problem !== null) throw new ShapeError(`${path}.${problem.key}: ${problem.message}`);
  const r = v as WorktreeRecord;
  return { repo: r.repo, path: r.path, branch: r.branch, base: r.base, baseRef: r.baseRef ?? null };
};

const worktreeStatus = object({ ahead: int, behind: int, added: int, deleted: int, dirty: int });

/** The task record of `ls --json`: every key present, so scripts need not guess. */
export const lsRecordCheck = object({
  id: int,
  run: int,
  cwd: str,
  /** null for a window adopted with no record of its command. */
  command: nullable(str),
  name: nullable(str),
  group: nullable(str),
  tagged: bool,
  state: oneOf({ running: true, idle: true, exited: true }),
  exitStatus: nullable(int),
  killed: bool,
  harness: nullable(oneOf(HARNESS_NAMES)),
  conversationId: nullable(str),
  idSource: nullable(oneOf(ID_SOURCES)),
  resumeCommand: nullable(str),
  /** The live or ended background job claude parked this task's conversation in. */
  parkedJob: nullable(object({ id: str, sessionId: nullable(str), alive: bool })),
  windowId: str,
  paneId: str,
  /**
   * The tmux server the window and pane ids belong to: what `ssh -t HOST tmux -S … attach -t
   * <windowId>` names on a host. Absent in the replies of supervisors from before it was added.
   */
  tmuxSocket: optional(nullable(str)),
  spawnedAt: str,
  lastOutputAt: str,
  /** From the agent's own signals (claude hooks, codex notifier); null for other commands. */
  attention: nullable(oneOf(ATTENTIONS)),
  attentionSince: nullable(str),
  /**
   * What the agent said while it waits (a question's text, claude's notification); null when
   * it said nothing or does not wait. Absent in the replies of supervisors from before it was added.
   */
  attentionMessage: optional(nullable(str)),
  /**
   * The agent's turn under way, else its last one (0 before the first), counted from its own
   * signals in this run; null for a command without them. Absent from supervisors before it.
   */
  turn: optional(nullable(int)),
  /**
   * The git worktree it runs in, and its state against its base as last read in the
   * background (null until read). Absent in the replies of supervisors from before it was added.
   */
  worktree: optional(nullable((v, path = '') => ({ ...worktreeRecord(v, path), status: nullable(worktreeStatus)((v as { status?: unknown }).status ?? null, `${path}.status`) }))),
});
export type LsRecord = Checked<typeof lsRecordCheck>;

const AGENT_HOME_VARS = Object.fromEntries(HOME_VARS.map((name) => [name, true])) as Record<AgentHomeVar, true>;

/** A task's agent homes: only these variables, absolute paths (as protocol.ts's recipeTaskSchema). */
const agentHomes: Check<Partial<Record<AgentHomeVar, string>>> = (v, path = '') => {
  const homes = record(str)(v, path);
  for (const [key, dir] of Object.entries(homes)) {
    oneOf(AGENT_HOME_VARS)(key, `${path} key`);
    if (!dir.startsWith('/')) throw new ShapeError(`${path}.${key}: expected an absolute path`);
  }
  return homes;
};

/**
 * A pane running an agent someone started by hand (`fleetcom adopt`), and what it would
 * become as a task — or why it never will (`adoptable` false, `why` says it).
 */
export const agentPaneCheck = object({
  paneId: str,
  windowId: str,
  session: str,
  agent: nullable(oneOf(HARNESS_NAMES)),
  pid: nullable(int),
  /** The task's command: the agent's program word. */
  command: nullable(str),
  cwd: nullable(str),
  home: nullable(str),
  conversationId: nullable(str),
  /** Which trace named it (`claude registry <file>`, `the rollout it holds open, <file>`, `its argv`). */
  idFrom: nullable(str),
  /** What a save would write for it now. */
  resumeCommand: nullable(str),
  /** The agent runs under the pane's shell, which outlives it: the task follows the agent. */
  underShell: bool,
  /** false: its window holds other panes, and adopting moves it to a window of its own. */
  ownWindow: bool,
  adoptable: bool,
  /** Why it has no conversation id (adoptable) or why it is refused; null when all is known. */
  why: nullable(str),
});
export type AgentPaneView = Checked<typeof agentPaneCheck>;

/** A recipe entry as the supervisor hands it to `save`. */
const recipeTaskCheck = object({ cwd: str, cmd: str, name: nullable(str), group: nullable(str), env: optional(agentHomes), worktree: optional(worktreeRecord) });
const taskId = object({ id: int });

const warningFields = object({ entry: str, reason: str, detail: optional(str) });
/** A load's warning (warnings.ts); a supervisor from before they were summed up sent one line each. */
const warning: Check<Checked<typeof warningFields>> = (v, path = '') => (typeof v === 'string' ? { entry: '', reason: v } : warningFields(v, path));

/**
 * What `send` found: the agent took the message (`submitted`, its own signal said so), it was
 * typed but not taken (`typed_not_submitted`: the composer still holds it), a dialog or a
 * person's draft was in the way (`blocked`), it worked the whole time (`busy`), it had exited
 * (`exited`), the text left the composer with no signal to say the agent took it
 * (`unconfirmed`), or it went to a plain command (`typed`).
 */
export const SEND_VERDICTS = ['submitted', 'typed_not_submitted', 'blocked', 'busy', 'exited', 'unconfirmed', 'typed'] as const;
export type SendVerdict = (typeof SEND_VERDICTS)[number];
const VERDICTS = Object.fromEntries(SEND_VERDICTS.map((v) => [v, true])) as Record<SendVerdict, true>;

/** What `wait` waits for: the end of a turn, any state that needs the user, the task's end. */
export const WAIT_UNTIL = ['waiting', 'needs-you', 'exited'] as const;

const FEED_TYPES = { started: true, conversation: true, working: true, waiting: true, question: true, permission: true, exited: true, removed: true } as const;

/** One line of `events` (and the events of a `wait`): a task's transition. */
export const feedEventCheck = object({
  type: oneOf(FEED_TYPES),
  task: int,
  run: int,
  at: str,
  label: str,
  /** working, waiting, question, permission: the turn under way, or the one that ended. */
  turn: optional(nullable(int)),
  /** question and permission: what the agent asks. */
  text: optional(nullable(str)),
  conversationId: optional(nullable(str)),
  exitStatus: optional(nullable(int)),
  killed: optional(bool),
  /** Set by `events --all-hosts` on the lines of other hosts. */
  host: optional(str),
});
export type FeedEvent = Checked<typeof feedEventCheck>;

/** A waited task as the wait ended. */
export const waitTaskCheck = object({
  task: int,
  label: str,
  state: oneOf({ running: true, idle: true, exited: true, removed: true }),
  attention: nullable(oneOf(ATTENTIONS)),
  question: bool,
  /** The turn under way or the last one; null for a command without turn signals. */
  turn: nullable(int),
  /** How many turns have ended (null as for turn). */
  turnsEnded: nullable(int),
  exitStatus: nullable(int),
  /** Since when it is in its state (ISO), when known. */
  since: nullable(str),
  met: bool,
  /** Why the condition can no longer be met for it, else null. */
  never: nullable(str),
});
export type WaitTask = Checked<typeof waitTaskCheck>;

export const replyChecks = {
  status: object({
    pid: int, tmuxSessionId: str, tmuxSessionName: str, tmuxSocket: optional(nullable(str)), hosts: optional(list(str)), tasks: int,
    // The supervisor's line to tmux: its control connection, whether changes come as events, the
    // whole reconciliations run so far. Absent in the replies of supervisors from before it.
    tmuxLink: optional(object({ connection: oneOf({ up: true, down: true, off: true }), events: bool, streams: bool, note: nullable(str), reconciliations: int })),
  }),
  run: taskId,
  ls: list(lsRecordCheck),
  rerun: taskId,
  kill: nothing,
  rm: nothing,
  rename: lsRecordCheck,
  group: lsRecordCheck,
  tag: lsRecordCheck,
  'pane-died': nothing,
  save: list(recipeTaskCheck),
  // `skipped` is absent in the replies of supervisors from before it was added.
  load: object({ ids: list(int), errors: list(warning), skipped: optional(list(warning)) }),
  down: nothing,
  // The task now shown, or null when none needs the user.
  next: nullable(taskId),
  // The fleet's tmux server, its panes running hand-started agents, and a word about the caller's server.
  adoptable: object({ tmuxSocket: str, panes: list(agentPaneCheck), note: nullable(str) }),
  adopt: object({ adopted: list(object({ id: int, paneId: str })), refused: list(agentPaneCheck) }),
  send: object({ task: int, verdict: oneOf(VERDICTS), via: str, turn: nullable(int), conversationId: nullable(str), ms: int, reason: nullable(str) }),
  wait: object({ met: bool, timedOut: bool, why: nullable(str), tasks: list(waitTaskCheck) }),
  output: object({ task: int, conversationId: nullable(str), turn: nullable(int), text: str, source: oneOf({ signal: true, store: true, screen: true }), from: str }),
  // The stream's end, and whether it is its own: the fleet went down or the task of `events --task`
  // left it (`down`), rather than the supervisor stopping with the tasks running on.
  events: object({ ended: str, down: optional(bool) }),
  // Why a watched pane's stream ended on the supervisor's side (the pane went, the fleet went down).
  watch: object({ reason: str }),
  input: nothing,
};

/**
 * An event of a `watch` stream: the pane's screen as terminal bytes (clear, its lines, the
 * cursor placed; after a pause too), or the bytes it wrote since; `data` is base64.
 */
export type WatchEvent = { kind: 'screen'; width: number; height: number; data: string } | { kind: 'output'; data: string };

const screenEvent = object({ kind: oneOf({ screen: true }), width: int, height: int, data: str });
const outputEvent = object({ kind: oneOf({ output: true }), data: str });

/** Checks a `watch` event as a client receives it (streamSupervisor hands events on unchecked). */
export const watchEventCheck: Check<WatchEvent> = (v, path = '') =>
  (typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'screen' ? screenEvent(v, path) : outputEvent(v, path));

export type ReplyOf<K extends keyof typeof replyChecks> = Checked<(typeof replyChecks)[K]>;
