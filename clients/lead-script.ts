// The mock's script for a lead claude driving a worker through fleetcom's MCP tools. A
// conversation whose first user message holds LEAD_MARK is answered turn by turn from what
// the conversation holds so far, as a model would: start a codex worker (mcp__fleetcom__run),
// send it WORKER_MESSAGE (send), wait for the turn the send started, until met (wait, again
// while pending), read its reply (output), then answer in text. Each step reads the previous
// tool's result (the task id, the turn) out of the request claude makes, so the lead's next
// request carrying the worker's reply is what the test checks.

/** A claude conversation naming this (and the project's path after it) is the lead's. */
export const LEAD_MARK = 'fleetcom-mock-lead';
/** What the lead sends its worker. */
export const WORKER_MESSAGE = 'fleetcom-mock-worker: answer in one line';
/** The prefix of claude's names for the tools of the MCP server named fleetcom. */
export const TOOL_PREFIX = 'mcp__fleetcom__';

export type LeadStep =
  | { kind: 'tool'; name: string; input: Record<string, unknown> }
  | { kind: 'text'; text: string };

interface Block {
  type?: unknown;
  text?: unknown;
  name?: unknown;
  id?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
  is_error?: unknown;
}

const asRecord = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const blocks = (message: unknown): Block[] => {
  const content = asRecord(message).content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.map((b) => asRecord(b) as Block) : [];
};
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((c) => String(asRecord(c).text ?? '')).join('\n') : '';

/** The first text of the conversation's first user message naming LEAD_MARK; else null. */
function leadRequest(messages: unknown[]): string | null {
  const first = messages.find((m) => asRecord(m).role === 'user');
  const text = blocks(first).map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n');
  return text.includes(LEAD_MARK) ? text : null;
}

/** The tool calls the conversation made so far, with what each answered. */
function calls(messages: unknown[]): Array<{ name: string; result: string; isError: boolean }> {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const m of messages) {
    for (const b of blocks(m)) if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') results.set(b.tool_use_id, { text: textOf(b.content), isError: b.is_error === true });
  }
  const made: Array<{ name: string; result: string; isError: boolean }> = [];
  for (const m of messages) {
    if (asRecord(m).role !== 'assistant') continue;
    for (const b of blocks(m)) {
      if (b.type !== 'tool_use' || typeof b.name !== 'string' || typeof b.id !== 'string') continue;
      const r = results.get(b.id);
      if (r !== undefined) made.push({ name: b.name, result: r.text, isError: r.isError });
    }
  }
  return made;
}

function json(text: string): Record<string, unknown> {
  try {
    return asRecord(JSON.parse(text.split('\n')[0] ?? ''));
  } catch {
    return {};
  }
}

/** The next step of a lead conversation, or null when `messages` is not one. */
export function leadStep(messages: unknown): LeadStep | null {
  if (!Array.isArray(messages)) return null;
  const request = leadRequest(messages);
  if (request === null) return null;
  const project = new RegExp(`${LEAD_MARK}\\s+(\\S+)`).exec(request)?.[1];
  const made = calls(messages);
  const last = made.at(-1);
  if (last?.isError) return { kind: 'text', text: `fleetcom-mock-lead-failed: ${last.name} answered an error: ${last.result}` };
  const started = made.find((c) => c.name === `${TOOL_PREFIX}run`);
  const task = started === undefined ? undefined : json(started.result).task;
  const sent = made.find((c) => c.name === `${TOOL_PREFIX}send`);
  const turn = sent === undefined ? undefined : json(sent.result).turn;
  const tool = (name: string, input: Record<string, unknown>): LeadStep => ({ kind: 'tool', name: `${TOOL_PREFIX}${name}`, input });
  if (started === undefined) return tool('run', { command: 'codex', ...(project === undefined ? {} : { cwd: project }), name: 'worker' });
  if (typeof task !== 'number') return { kind: 'text', text: `fleetcom-mock-lead-failed: run answered no task: ${started.result}` };
  if (sent === undefined) return tool('send', { task, text: WORKER_MESSAGE });
  if (json(sent.result).verdict !== 'submitted') return { kind: 'text', text: `fleetcom-mock-lead-failed: send was not submitted: ${sent.result}` };
  if (last?.name === `${TOOL_PREFIX}send` || (last?.name === `${TOOL_PREFIX}wait` && json(last.result).met !== true)) {
    if (last.name === `${TOOL_PREFIX}wait` && json(last.result).timedOut !== true) return { kind: 'text', text: `fleetcom-mock-lead-failed: the wait cannot be met: ${last.result}` };
    return tool('wait', { tasks: [task], ...(typeof turn === 'number' ? { turn } : {}) });
  }
  if (last?.name === `${TOOL_PREFIX}wait`) return tool('output', { task });
  if (last?.name === `${TOOL_PREFIX}output`) return { kind: 'text', text: `fleetcom-mock-lead-done: the worker answered ${JSON.stringify(json(last.result).text ?? null)}` };
  return { kind: 'text', text: `fleetcom-mock-lead-failed: no step after ${last?.name ?? 'nothing'}` };
}
