// The control socket's language: one NDJSON request and one reply per connection, each
// validated. Every request carries the protocol version; `down` is accepted from any version
// so an old supervisor can always be stopped.
import * as z from 'zod';
import { AGENT_HOME_VARS } from '../harness/names.js';
import { worktreeRecordProblem, type WorktreeRecord } from '../worktree-record.js';
import { PROTOCOL_VERSION, type Reply } from './reply.js';
import type { ReplyOf } from './replies.js';

export { KEEPALIVE_MS, PROTOCOL_VERSION, type Reply } from './reply.js';
export type { AgentPaneView, FeedEvent, LsRecord, ReplyOf, SendVerdict, WaitTask, WatchEvent } from './replies.js';
export { SEND_VERDICTS, WAIT_UNTIL } from './replies.js';
import { WAIT_UNTIL } from './replies.js';

const env = z.record(z.string(), z.string());
/** A task id (`3`), a pane id (`%12`) or a window id (`@7`). */
const taskRef = z.string().regex(/^(\d+|%\d+|@\d+)$/, 'expected a task id, %pane or @window');
const label = z.string().nullable();
/** The most bytes one `input` request types into a pane. */
export const MAX_INPUT_BYTES = 64 * 1024;
/** A pane (`%12`) or a window (`@7`) of the fleet's tmux server. */
const paneRef = z.string().regex(/^(%\d+|@\d+)$/, 'expected %pane or @window');
/** A wait's bound: up to a day. */
const waitMs = z.number().int().min(0).max(86_400_000);

/** A task's agent homes (absolute paths): only these variables, so a recipe cannot set others. */
const agentHomes = z.partialRecord(z.enum(AGENT_HOME_VARS), z.string().startsWith('/'));
/** The git worktree a task runs in (its cwd is the worktree's path). */
const worktree = z.custom<WorktreeRecord>((v) => worktreeRecordProblem(v) === null, 'expected a worktree record {repo, path, branch, base, baseRef}');
export const recipeTaskSchema = z.object({ cwd: z.string(), cmd: z.string(), name: label, group: label, env: agentHomes.optional(), worktree: worktree.optional() });
export type RecipeTask = z.infer<typeof recipeTaskSchema>;

export const requestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('status') }),
  z.object({ op: z.literal('run'), command: z.string().min(1), cwd: z.string(), env, name: label, group: label, worktree: worktree.optional() }),
  // fromState: answered from the supervisor's state as it is, without the reconciliation (a tmux
  // call) an idle `ls` runs first: the Tab's candidates, which must not wait for tmux. A
  // supervisor from before it drops the key and reconciles.
  z.object({ op: z.literal('ls'), fromState: z.boolean().optional() }),
  z.object({ op: z.literal('rerun'), task: taskRef }),
  z.object({ op: z.literal('kill'), task: taskRef }),
  z.object({ op: z.literal('rm'), task: taskRef }),
  z.object({ op: z.literal('rename'), task: taskRef, name: z.string() }),
  z.object({ op: z.literal('group'), task: taskRef, group: z.string() }),
  z.object({ op: z.literal('tag'), task: taskRef }),
  z.object({ op: z.literal('down') }),
  z.object({ op: z.literal('pane-died'), pane: z.string().regex(/^%\d+$/) }),
  z.object({ op: z.literal('save') }),
  z.object({ op: z.literal('load'), tasks: z.array(recipeTaskSchema), env }),
  // Go to the next task that needs the user; `from` is where the user is (a task ref or null).
  // wrap false: null instead of going round to the first again (the hosts' tasks come between).
  z.object({ op: z.literal('next'), from: taskRef.nullable(), client: z.string().min(1).nullable(), wrap: z.boolean().optional() }),
  // Panes running agents someone started by hand; `caller`: the tmux server socket of the asking
  // shell ($TMUX), so a pane id named from another server is never taken for one of the fleet's.
  z.object({ op: z.literal('adoptable'), caller: z.string().nullable() }),
  z.object({ op: z.literal('adopt'), targets: z.array(paneRef).min(1).nullable(), caller: z.string().nullable() }),
  // Orchestration (answered beside the queue, src/fleet/turns and src/fleet/delivery). `send`
  // types one message into an agent and waits for the agent to take it; `timeoutMs` bounds the
  // whole of it (the wait for the task to need input included).
  z.object({ op: z.literal('send'), task: taskRef, text: z.string(), now: z.boolean(), timeoutMs: waitMs }),
  // Streamed (control/stream.ts): the waited tasks' events, then whether the condition was met.
  z.object({ op: z.literal('wait'), tasks: z.array(taskRef).min(1).max(1000), mode: z.enum(['any', 'all']), until: z.enum(WAIT_UNTIL), turn: z.number().int().min(1).nullable(), timeoutMs: waitMs.nullable() }),
  z.object({ op: z.literal('output'), task: taskRef, turn: z.number().int().min(1).nullable(), screen: z.boolean() }),
  // Streamed: every transition of the fleet (or of one task) until the fleet goes down.
  z.object({ op: z.literal('events'), task: taskRef.nullable() }),
  // A task's pane as a stream (control/stream.ts): its screen, then its output, each an event
  // with base64 bytes (replies.ts: watchEventCheck); the reply names why it ended.
  z.object({ op: z.literal('watch'), task: taskRef }),
  // Bytes typed into a task's pane, base64 (at most MAX_INPUT_BYTES once decoded).
  z.object({ op: z.literal('input'), task: taskRef, data: z.base64().max(Math.ceil(MAX_INPUT_BYTES / 3) * 4) }),
]);
export type Request = z.infer<typeof requestSchema>;
export type Op = Request['op'];

/** The ops answered beside the supervisor's queue of changes, never on it: they last, or only read. */
export const BESIDE_OPS = ['send', 'wait', 'output', 'events'] as const;
export type BesideOp = (typeof BESIDE_OPS)[number];
export type BesideRequest = Extract<Request, { op: BesideOp }>;
export type QueueRequest = Exclude<Request, { op: BesideOp }>;

export function isBeside(request: Request): request is BesideRequest {
  return (BESIDE_OPS as readonly string[]).includes(request.op);
}
/** What the supervisor answers a request (replies.ts); an op without a reply check fails to compile here. */
export type ReplyTo<R extends Request> = ReplyOf<R['op']>;

export const envelopeSchema = z.looseObject({ v: z.number(), op: z.string() });

/** Validates a raw request line; returns the request or an error reply. */
export function parseRequest(line: string): Request | Reply {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return failure('request is not valid JSON');
  }
  const envelope = envelopeSchema.safeParse(raw);
  if (!envelope.success) return failure('request needs a numeric "v" and a string "op"');
  if (envelope.data.v !== PROTOCOL_VERSION && envelope.data.op !== 'down') {
    return failure(`protocol version ${envelope.data.v} is not spoken here (this supervisor speaks ${PROTOCOL_VERSION}); restart the fleet with the same fleetcom`);
  }
  const { v: _v, ...body } = envelope.data;
  const request = requestSchema.safeParse(body);
  if (!request.success) {
    const issues = request.error.issues.map((i) => `${i.path.join('.') || '(request)'}: ${i.message}`).join('; ');
    return failure(`bad ${envelope.data.op} request: ${issues}`);
  }
  return request.data;
}

export function failure(error: string, exitCode = 1): Reply {
  return { ok: false, error, exitCode };
}

export function isReply(value: Request | Reply): value is Reply {
  return 'ok' in value;
}
