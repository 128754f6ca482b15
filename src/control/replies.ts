// The reply of every control op, as checks with inferred types: the supervisor's dispatch must
// return these types and a client reads each reply through its op's check, so both ends agree
// at compile time and a reply of another shape is refused at run time. Zod-free (shape.ts).
import type { Attention } from '../harness/attention.js';
import { AGENT_HOME_VARS as HOME_VARS, HARNESS_NAMES as NAMES, type AgentHomeVar, type HarnessName } from '../harness/names.js';
import type { IdSource } from '../harness/types.js';
import { bool, int, list, nothing, nullable, object, oneOf, optional, record, ShapeError, str, type Check, type Checked } from './shape.js';

const HARNESS_NAMES = Object.fromEntries(NAMES.map((name) => [name, true])) as Record<HarnessName, true>;
const ID_SOURCES: Record<Exclude<IdSource, 'correlation'>, true> = { 'exit-hint': true, capture: true, pinned: true };
const ATTENTIONS: Record<Attention, true> = { working: true, waiting: true, permission: true };

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
  spawnedAt: str,
  lastOutputAt: str,
  /** From the agent's own signals (claude hooks, codex notifier); null for other commands. */
  attention: nullable(oneOf(ATTENTIONS)),
  attentionSince: nullable(str),
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

/** A recipe entry as the supervisor hands it to `save`. */
const recipeTaskCheck = object({ cwd: str, cmd: str, name: nullable(str), group: nullable(str), env: optional(agentHomes) });
const taskId = object({ id: int });

const warningFields = object({ entry: str, reason: str, detail: optional(str) });
/** A load's warning (warnings.ts); a supervisor from before they were summed up sent one line each. */
const warning: Check<Checked<typeof warningFields>> = (v, path = '') => (typeof v === 'string' ? { entry: '', reason: v } : warningFields(v, path));

export const replyChecks = {
  status: object({ pid: int, tmuxSessionId: str, tmuxSessionName: str, tasks: int }),
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
};

export type ReplyOf<K extends keyof typeof replyChecks> = Checked<(typeof replyChecks)[K]>;
