// A mock of the two model APIs on 127.0.0.1, just rich enough for one real turn of each client:
//   claude: POST /v1/messages (SSE when `stream`, JSON otherwise), POST /v1/messages/count_tokens
//   codex:  POST /v1/responses (SSE), GET /v1/models
//   gemini: POST /v1beta/models/<model>:generateContent (JSON) and :streamGenerateContent (SSE)
//   opencode (an OpenAI-compatible provider): POST /v1/chat/completions (SSE when `stream`)
// Every request is recorded (method, path, parsed body) so tests can see what a client asked.
// Anything else gets a 404 in the API's error shape; nothing is ever proxied anywhere.
//
//   const api = await startMockApi();
//   env.ANTHROPIC_BASE_URL = api.url;           // http://127.0.0.1:PORT
//   codex: base_url = `${api.url}/v1`, wire_api = "responses"
//   await api.close();
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { leadStep } from './lead-script.js';

export const MOCK_MODEL = 'mock-model';
/** Every reply starts with this, so a test can wait for it on screen. */
export const REPLY_MARK = 'fleetcom-mock-reply';
/**
 * A user message containing this gets a tool call instead of text (claude: the Bash tool
 * running TOOL_COMMAND), so a test can make the client ask for permission.
 */
export const TOOL_CALL_MARK = 'fleetcom-mock-tool-call';
export const TOOL_COMMAND = 'touch fleetcom-permission-probe';
/** claude: a message containing this is answered with an AskUserQuestion call asking QUESTION_TEXT. */
export const QUESTION_MARK = 'fleetcom-mock-question';
export const QUESTION_TEXT = 'Deploy to prod now?';
/** claude: a message containing this is answered with an ExitPlanMode call submitting PLAN_TEXT. */
export const PLAN_MARK = 'fleetcom-mock-plan';
export const PLAN_TEXT = '## Rename the probe\n1. touch the probe file';
/**
 * A turn whose message contains this is answered only at `releaseHeld()`: the client stays busy
 * (claude, gemini, codex and the chat-completions clients alike).
 */
export const HOLD_MARK = 'fleetcom-mock-hold';
/**
 * codex: a turn whose last user message contains this is answered with one `spawn_agent` call
 * of codex's `multi_agent_v1` tool namespace; the subagent's own turn (its message is
 * SUBTASK_MESSAGE) and the parent's follow-up after the call get text replies.
 */
export const DELEGATE_MARK = 'fleetcom-mock-delegate';
export const SUBTASK_MESSAGE = 'fleetcom-mock-subtask: answer in one line';
/** Like DELEGATE_MARK, but the subagent is asked to delegate in turn (a thread of depth 2). */
export const DELEGATE_DEEP_MARK = 'fleetcom-mock-deep-delegate';
const TITLE_REPLY = 'Mock task title';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The parsed JSON body, or null for none or non-JSON. */
  body: unknown;
  at: number;
}

export interface MockApi {
  /** `http://127.0.0.1:PORT` (no trailing slash, no `/v1`). */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** The text the mock answered with, in order (both APIs). */
  replies: string[];
  /**
   * Each reply with the user text it answered and whether its request offered tools: a turn's
   * reply is the first one offering tools whose input holds its message (claude's title
   * request quotes the message, offering none).
   */
  answered: Array<{ input: string; text: string; tools: boolean }>;
  /** How many turns are held (HOLD_MARK); `releaseHeld` answers them. */
  held(): number;
  releaseHeld(): void;
  close(): Promise<void>;
}

export async function startMockApi(): Promise<MockApi> {
  const requests: RecordedRequest[] = [];
  const replies: string[] = [];
  const answered: Array<{ input: string; text: string; tools: boolean }> = [];
  // Whether the request being answered offered tools (set before each route, which replies at once).
  let offered = false;
  let turn = 0;
  const held: Array<() => void> = [];
  const nextReply = (input: string): string => {
    // codex asks a second thread for a title after the first turn: answer it like a title.
    const text = /task title/i.test(input) ? TITLE_REPLY : `${REPLY_MARK} ${++turn}`;
    replies.push(text);
    answered.push({ input, text, tools: offered });
    return text;
  };
  const server = createServer((req, res) => {
    readBody(req).then(
      (raw) => {
        const body = parseJson(raw);
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        requests.push({ method: req.method ?? 'GET', path, body, at: Date.now() });
        const answer = () => {
          offered = Array.isArray(asRecord(body).tools) && (asRecord(body).tools as unknown[]).length > 0;
          route(req.method ?? 'GET', path, body, res, nextReply);
        };
        if (isHeldTurn(path, body)) held.push(answer);
        else answer();
      },
      () => res.destroy(),
    );
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    replies,
    answered,
    held: () => held.length,
    releaseHeld: () => {
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function route(method: string, path: string, body: unknown, res: ServerResponse, nextReply: (input: string) => string): void {
  if (method === 'POST' && path === '/v1/messages') return anthropicMessage(body, res, nextReply);
  if (method === 'POST' && path === '/v1/messages/count_tokens') return json(res, 200, { input_tokens: 12 });
  if (method === 'POST' && path === '/v1/responses') return openaiResponse(body, res, nextReply);
  if (method === 'POST' && path === '/v1/chat/completions') return chatCompletion(body, res, nextReply);
  const gemini = /^\/v1(?:beta|alpha|1)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
  if (method === 'POST' && gemini) return geminiContent(gemini[1] ?? MOCK_MODEL, gemini[2] ?? '', body, res, nextReply);
  if (method === 'GET' && path === '/v1/models') {
    return json(res, 200, { object: 'list', data: [{ id: MOCK_MODEL, object: 'model', created: 0, owned_by: 'fleetcom' }], models: [] });
  }
  json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `mock API: no ${method} ${path}` } });
}

// ---- Anthropic Messages -------------------------------------------------------------------

/** Only the turn itself offers tools; the title request that comes with a first message does not. */
function offersBash(b: Record<string, unknown>): boolean {
  return Array.isArray(b.tools) && b.tools.some((t) => asRecord(t).name === 'Bash');
}

function isHeldTurn(path: string, body: unknown): boolean {
  const b = asRecord(body);
  if (path === '/v1/messages') return offersBash(b) && lastUserText(b.messages).includes(HOLD_MARK);
  // codex's turn (never its title thread, which quotes the message), and a chat-completions
  // turn of opencode, kilo, qwen, pi or copilot (never a title request, never a tool result's
  // follow-up).
  if (path === '/v1/responses') return unansweredUserText(b.input)?.includes(HOLD_MARK) === true;
  if (path === '/v1/chat/completions') {
    const messages = Array.isArray(b.messages) ? b.messages.map(asRecord) : [];
    return messages.at(-1)?.role === 'user' && !isTitleRequest(b) && lastUserText(b.messages).includes(HOLD_MARK);
  }
  // gemini's turn (not its JSON routing request that quotes the message first).
  const gemini = /:(?:generateContent|streamGenerateContent)$/.test(path) && asRecord(b.generationConfig).responseMimeType !== 'application/json';
  return gemini && geminiUserText(b.contents).includes(HOLD_MARK);
}

function anthropicMessage(body: unknown, res: ServerResponse, nextReply: (input: string) => string): void {
  const b = asRecord(body);
  const model = typeof b.model === 'string' ? b.model : MOCK_MODEL;
  const input = lastUserText(b.messages);
  const id = `msg_mock_${Date.now().toString(36)}`;
  const usage = { input_tokens: 12, output_tokens: 6, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  // A lead claude driving a worker through fleetcom's MCP tools (lead-script.ts): its turn only.
  const lead = offersBash(b) && b.stream === true ? leadStep(b.messages) : null;
  if (lead?.kind === 'tool') return anthropicToolCall(id, model, usage, res, lead.name, lead.input);
  if (input.includes(TOOL_CALL_MARK) && offersBash(b) && b.stream === true) {
    return anthropicToolCall(id, model, usage, res, 'Bash', { command: TOOL_COMMAND, description: 'Create a probe file' });
  }
  if (input.includes(QUESTION_MARK) && offersBash(b) && b.stream === true) {
    const options = [{ label: 'Yes', description: 'ship it' }, { label: 'No', description: 'wait' }];
    return anthropicToolCall(id, model, usage, res, 'AskUserQuestion', { questions: [{ question: QUESTION_TEXT, header: 'Deploy', options, multiSelect: false }] });
  }
  if (input.includes(PLAN_MARK) && offersBash(b) && b.stream === true) return anthropicToolCall(id, model, usage, res, 'ExitPlanMode', { plan: PLAN_TEXT });
  const text = lead?.kind === 'text' ? lead.text : nextReply(input);
  if (b.stream !== true) {
    json(res, 200, {
      id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }],
      stop_reason: 'end_turn', stop_sequence: null, usage,
    });
    return;
  }
  const sse = startSse(res, { 'request-id': `req_${id}` });
  sse('message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  sse('ping', { type: 'ping' });
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
  sse('content_block_stop', { type: 'content_block_stop', index: 0 });
  sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 6 } });
  sse('message_stop', { type: 'message_stop' });
  res.end();
}

/** One streamed `tool_use` of one of claude's tools (Bash: the client then asks before running it). */
function anthropicToolCall(id: string, model: string, usage: Record<string, number>, res: ServerResponse, name: string, toolInput: unknown): void {
  const sse = startSse(res, { 'request-id': `req_${id}` });
  const input = JSON.stringify(toolInput);
  sse('message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_${id}`, name, input: {} } });
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: input } });
  sse('content_block_stop', { type: 'content_block_stop', index: 0 });
  sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 6 } });
  sse('message_stop', { type: 'message_stop' });
  res.end();
}

/** The text of the last user message (string content or text blocks). */
function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = asRecord(messages[i]);
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) return m.content.map((c) => String(asRecord(c).text ?? '')).join('\n');
  }
  return '';
}

// ---- OpenAI Responses ---------------------------------------------------------------------

function openaiResponse(body: unknown, res: ServerResponse, nextReply: (input: string) => string): void {
  const b = asRecord(body);
  const model = typeof b.model === 'string' ? b.model : MOCK_MODEL;
  const delegate = delegation(b.input);
  if (delegate !== null) return openaiSpawnAgent(model, delegate, res);
  if (unansweredUserText(b.input)?.includes(TOOL_CALL_MARK)) {
    // Run outside the sandbox: codex asks before it does (approval policy on-request).
    const call = { cmd: TOOL_COMMAND, sandbox_permissions: 'require_escalated', justification: 'Create a probe file' };
    return openaiFunctionCall(model, res, { name: 'exec_command' }, call);
  }
  const text = nextReply(responsesInputText(b.input));
  responsesStream(model, res, (stamp, send) => {
    const itemId = `msg_mock_${stamp}`;
    const done = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
    send('response.output_item.added', { output_index: 0, item: { ...done, status: 'in_progress', content: [] } });
    send('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    send('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: text });
    send('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text });
    send('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
    send('response.output_item.done', { output_index: 0, item: done });
    return done;
  });
}

type Send = (type: string, data: Record<string, unknown>) => void;

/** One streamed Responses reply: created, in progress, the events of `item` (which returns its done form), completed. */
function responsesStream(model: string, res: ServerResponse, item: (stamp: string, send: Send) => unknown): void {
  const stamp = Date.now().toString(36);
  const created = Math.floor(Date.now() / 1000);
  const response = (status: string, output: unknown[], usage: unknown) => ({
    id: `resp_mock_${stamp}`, object: 'response', created_at: created, status, model, output, usage,
    error: null, incomplete_details: null, instructions: null, metadata: {},
  });
  const usage = {
    input_tokens: 12, input_tokens_details: { cached_tokens: 0 },
    output_tokens: 6, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 18,
  };
  const sse = startSse(res, { 'x-request-id': `req_${stamp}` });
  let seq = 0;
  const send: Send = (type, data) => sse(type, { type, sequence_number: seq++, ...data });
  send('response.created', { response: response('in_progress', [], null) });
  send('response.in_progress', { response: response('in_progress', [], null) });
  const done = item(stamp, send);
  send('response.completed', { response: response('completed', [done], usage) });
  res.end();
}

/**
 * The message a subagent is to be spawned with, when the last user message names a delegate
 * mark and no call after it was answered yet; else null.
 */
function delegation(input: unknown): string | null {
  const text = unansweredUserText(input);
  if (text === null) return null;
  if (text.includes(DELEGATE_DEEP_MARK)) return `${DELEGATE_MARK} (from a subagent)`;
  return text.includes(DELEGATE_MARK) ? SUBTASK_MESSAGE : null;
}

/** One streamed `function_call` of `multi_agent_v1.spawn_agent`: codex then runs a subagent thread. */
function openaiSpawnAgent(model: string, message: string, res: ServerResponse): void {
  openaiFunctionCall(model, res, { name: 'spawn_agent', namespace: 'multi_agent_v1' }, { message });
}

/** One streamed `function_call` of one of codex's tools. */
function openaiFunctionCall(model: string, res: ServerResponse, tool: { name: string; namespace?: string }, callArgs: unknown): void {
  responsesStream(model, res, (stamp, send) => {
    const args = JSON.stringify(callArgs);
    const item = { id: `fc_mock_${stamp}`, type: 'function_call', status: 'completed', call_id: `call_mock_${stamp}`, ...tool, arguments: args };
    send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } });
    send('response.function_call_arguments.delta', { item_id: item.id, output_index: 0, delta: args });
    send('response.function_call_arguments.done', { item_id: item.id, output_index: 0, arguments: args });
    send('response.output_item.done', { output_index: 0, item });
    return item;
  });
}

/**
 * The text of the last user message of a Responses `input`, while no tool call after it was
 * answered (the follow-up request carries the call's `function_call_output`); else null. The
 * title thread quotes the user's message: never it.
 */
function unansweredUserText(input: unknown): string | null {
  if (!Array.isArray(input)) return null;
  const items = input.map(asRecord);
  const last = items.findLastIndex((item) => item.role === 'user');
  if (last === -1 || items.slice(last + 1).some((item) => item.type === 'function_call_output')) return null;
  const text = itemText(items[last]);
  return /task title/i.test(text) ? null : text;
}

function itemText(item: Record<string, unknown> | undefined): string {
  const content = item?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((c) => String(asRecord(c).text ?? '')).join('\n') : '';
}

/** All the text of a Responses `input` (a string, or items with string or part content). */
function responsesInputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  return input.map((item) => itemText(asRecord(item))).join('\n');
}

// ---- Gemini generateContent ----------------------------------------------------------------

/** The text of the last `user` turn of a Gemini request's `contents`. */
function geminiUserText(contents: unknown): string {
  if (!Array.isArray(contents)) return '';
  for (let i = contents.length - 1; i >= 0; i--) {
    const c = asRecord(contents[i]);
    if (c.role !== undefined && c.role !== 'user') continue;
    const parts = Array.isArray(c.parts) ? c.parts : [];
    const text = parts.map((p) => (typeof asRecord(p).text === 'string' ? String(asRecord(p).text) : '')).join('');
    if (text !== '') return text;
  }
  return '';
}

/**
 * gemini-cli asks its router model which model to use (a JSON answer is expected), then streams
 * the turn, and adds a summary call. Every request gets a plain text reply; a router request
 * (its system instruction asks for a JSON `model_choice`) gets that JSON.
 */
function geminiContent(model: string, method: string, body: unknown, res: ServerResponse, nextReply: (input: string) => string): void {
  const b = asRecord(body);
  if (method === 'countTokens') return json(res, 200, { totalTokens: 12 });
  const config = asRecord(b.generationConfig);
  const wantsJson = config.responseMimeType === 'application/json';
  const call = !wantsJson && geminiWantsTool(b) ? { functionCall: { name: 'run_shell_command', args: { command: TOOL_COMMAND, description: 'Create a probe file' } } } : null;
  const text = wantsJson ? JSON.stringify({ reasoning: 'mock', model_choice: 'flash' }) : call ? '' : nextReply(geminiUserText(b.contents));
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [call ?? { text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 6, totalTokenCount: 18 },
    modelVersion: model,
  };
  if (method === 'generateContent') return json(res, 200, chunk);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  res.end();
}

/**
 * gemini: a user turn naming TOOL_CALL_MARK, whose call was not answered yet (the last content
 * holds no functionResponse), offered run_shell_command: gemini asks before it runs it.
 */
function geminiWantsTool(b: Record<string, unknown>): boolean {
  const contents = Array.isArray(b.contents) ? b.contents.map(asRecord) : [];
  const lastParts = Array.isArray(contents.at(-1)?.parts) ? (contents.at(-1)!.parts as unknown[]).map(asRecord) : [];
  if (lastParts.some((p) => p.functionResponse !== undefined)) return false;
  const offered = (Array.isArray(b.tools) ? b.tools : []).flatMap((t) => {
    const decls = asRecord(t).functionDeclarations;
    return Array.isArray(decls) ? decls.map((d) => String(asRecord(d).name ?? '')) : [];
  });
  return offered.includes('run_shell_command') && geminiUserText(b.contents).includes(TOOL_CALL_MARK);
}

// ---- OpenAI chat completions ----------------------------------------------------------------

/** Whether a chat completions request holds `text` in a user message (opencode, pi, copilot). */
export function chatRequestHas(body: unknown, text: string): boolean {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> } | null)?.messages ?? [];
  return messages.some((m) => m.role === 'user' && JSON.stringify(m.content ?? '').includes(text));
}

/** opencode asks for a title (its system prompt says so) and then the turn, both streamed. */
function chatCompletion(body: unknown, res: ServerResponse, nextReply: (input: string) => string): void {
  const b = asRecord(body);
  const model = typeof b.model === 'string' ? b.model : MOCK_MODEL;
  const isTitle = isTitleRequest(b);
  const call = isTitle ? null : chatToolCall(b);
  const id = `chatcmpl-mock-${Date.now().toString(36)}`;
  if (call !== null && b.stream === true) return chatToolCallStream(id, model, call, res);
  const text = isTitle ? TITLE_REPLY : nextReply(lastUserText(b.messages));
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 };
  if (b.stream !== true) {
    json(res, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const base = { id, object: 'chat.completion.chunk', created, model };
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  send({ ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** opencode's and kilo's title request: its system prompt says so. */
function isTitleRequest(b: Record<string, unknown>): boolean {
  const system = Array.isArray(b.messages) ? b.messages.map((m) => (asRecord(m).role === 'system' ? String(asRecord(m).content ?? '') : '')).join('\n') : '';
  return /title generator|generate a title|You are a title/i.test(system);
}

/**
 * A user turn (the last message, no tool result after it) naming TOOL_CALL_MARK gets a call of
 * the offered `bash` (or qwen's `run_shell_command`) tool running TOOL_COMMAND, one naming
 * QUESTION_MARK qwen's `ask_user_question` asking QUESTION_TEXT; one naming DELEGATE_MARK a call of the offered
 * `agent` (qwen's) or `task` tool (copilot's subagents) with SUBTASK_MESSAGE. Else null: a plain reply.
 */
function chatToolCall(b: Record<string, unknown>): { name: string; args: Record<string, unknown> } | null {
  const messages = Array.isArray(b.messages) ? b.messages.map(asRecord) : [];
  if (messages.at(-1)?.role !== 'user') return null;
  const offered = new Set((Array.isArray(b.tools) ? b.tools : []).map((t) => String(asRecord(asRecord(t).function).name ?? '')));
  const text = lastUserText(b.messages);
  if (text.includes(TOOL_CALL_MARK) && offered.has('bash')) return { name: 'bash', args: { command: TOOL_COMMAND, description: 'fleetcom mock probe' } };
  // qwen's shell tool and its question tool (gemini's names; a chat-completions client).
  if (text.includes(TOOL_CALL_MARK) && offered.has('run_shell_command')) return { name: 'run_shell_command', args: { command: TOOL_COMMAND, description: 'fleetcom mock probe' } };
  if (text.includes(QUESTION_MARK) && offered.has('ask_user_question')) {
    return { name: 'ask_user_question', args: { questions: [{ question: QUESTION_TEXT, header: 'Deploy', options: [{ label: 'Yes', description: 'deploy now' }, { label: 'No', description: 'wait' }], multiSelect: false }] } };
  }
  if (text.includes(DELEGATE_MARK) && offered.has('agent')) {
    return { name: 'agent', args: { description: 'fleetcom mock subtask', prompt: SUBTASK_MESSAGE, subagent_type: 'general-purpose' } };
  }
  if (text.includes(DELEGATE_MARK) && offered.has('task')) {
    return { name: 'task', args: { description: 'fleetcom mock subtask', prompt: SUBTASK_MESSAGE, agent_type: 'general-purpose', name: 'mock-helper' } };
  }
  return null;
}

function chatToolCallStream(id: string, model: string, call: { name: string; args: Record<string, unknown> }, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const toolCall = { index: 0, id: `call_mock_${Date.now().toString(36)}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } };
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [toolCall] }, finish_reason: null }] });
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 } });
  res.write('data: [DONE]\n\n');
  res.end();
}

// ---- HTTP plumbing ------------------------------------------------------------------------

function startSse(res: ServerResponse, headers: Record<string, string>): (event: string, data: unknown) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  return (event, data) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 16 * 1024 * 1024) chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(raw: string): unknown {
  if (raw === '') return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

function asRecord(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
