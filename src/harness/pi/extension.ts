// fleetcom's pi extension, written by fleetcom into each capture namespace and given to one
// launch with `-e <file>` (pi loads it beside the user's own extensions; measured on 1.6.0).
// It imports only node: builtins and opens no connection.
//
// What it writes, one JSON line each:
//   the capture file (FLEETCOM_CAPTURE_FILE): {"type": "session_start", "reason", "id", "cwd"}
//     at every session_start: the start, and each /new, /resume, /fork in the pane; and
//     {"type": "turn", "id", "cwd"} at each agent_settled — a /new names a session before it
//     holds anything, and a tmp cleaner sweeping the capture file after it would leave the
//     session the next turn talks in unnamed;
//   the events file beside it (`.events`): {"type", "sessionId"} of session_start,
//     agent_start, agent_settled and session_shutdown, for attention; {"type": "input",
//     "sessionId", "text"} of each prompt it takes, and with agent_settled the `reply`: the last
//     assistant text of the agent_end before it (send and output: harness/pi/conversing.ts).
// pi loads the extension again into each replacement runtime (/new, /resume, /fork): the
// capture path is kept on globalThis, since the variable is taken out of pi's environment at
// the first load (programs pi's bash tool starts must not write into this run's files).
import { APPEND_JS } from '../append-js.js';

export const PI_EXTENSION_FILE = 'pi-extension.js';
export const PI_EXTENSION_MODE = 0o600;

export const PI_EXTENSION = `// fleetcom's pi extension, written by fleetcom into its capture namespace.
${APPEND_JS}
const KEY = Symbol.for('fleetcom.pi.capture');
if (globalThis[KEY] === undefined) {
  globalThis[KEY] = process.env.FLEETCOM_CAPTURE_FILE || '';
  delete process.env.FLEETCOM_CAPTURE_FILE;
}
const capture = globalThis[KEY];
const events = capture.endsWith('.json') ? capture.slice(0, -5) + '.events' : '';

function sessionOf(ctx) {
  try {
    const id = ctx.sessionManager.getSessionId();
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/** The text of a message's content: a string, or its text parts. */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content.filter((p) => p && p.type === 'text' && typeof p.text === 'string').map((p) => p.text);
  return texts.length === 0 ? null : texts.join('');
}

/** The last assistant text of agent_end's messages, per session, for the agent_settled after it. */
const replies = new Map();

export default function fleetcom(pi) {
  pi.on('input', (event, ctx) => {
    const id = sessionOf(ctx);
    if (id === null) return;
    append(events, { type: 'input', sessionId: id, text: event && typeof event.text === 'string' ? event.text : null });
  });
  pi.on('agent_end', (event, ctx) => {
    const id = sessionOf(ctx);
    const messages = event && Array.isArray(event.messages) ? event.messages : [];
    const last = [...messages].reverse().find((m) => m && m.role === 'assistant' && textOf(m.content) !== null);
    if (id !== null) replies.set(id, last ? textOf(last.content) : null);
  });
  pi.on('session_start', (event, ctx) => {
    const id = sessionOf(ctx);
    if (id === null) return;
    append(capture, { type: 'session_start', reason: String(event && event.reason), id, cwd: typeof ctx.cwd === 'string' ? ctx.cwd : null });
    append(events, { type: 'session_start', sessionId: id });
  });
  for (const type of ['agent_start', 'agent_settled', 'session_shutdown']) {
    pi.on(type, (event, ctx) => {
      const id = sessionOf(ctx);
      if (id === null) return;
      if (type === 'agent_settled') append(capture, { type: 'turn', id, cwd: typeof ctx.cwd === 'string' ? ctx.cwd : null });
      const reply = type === 'agent_settled' && replies.has(id) ? { reply: replies.get(id) } : {};
      replies.delete(id);
      append(events, { type, sessionId: id, ...(event && typeof event.reason === 'string' ? { reason: event.reason } : {}), ...reply });
    });
  }
}
`;
