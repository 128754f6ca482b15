import { claudeSignal, questionSignal, type SignalResult } from '../attention.js';
import { claudeTurnOf } from '../claude/conversing.js';
import { textField, type TurnMark } from '../conversing.js';
import { isValidId } from '../ids.js';
import { isJsonObject } from '../json-shape.js';

// What qwen's hooks say (qwen-code 0.24.4, measured offline through a system-defaults overlay of
// the lab's own, clients/README.md "qwen's turns"). Its payloads are claude's (`hook_event_name`,
// `session_id`, `prompt_id` `<session>########<n>`), in this order:
// - a prompt: UserPromptSubmit (`prompt`, the exact text), Stop (`last_assistant_message`), then
//   Notification `idle_prompt` ("Qwen Code is waiting for your input") as it goes idle;
// - a tool it asks about: PermissionRequest (`tool_name`, `tool_input`), then Notification
//   `permission_prompt`; once answered and run, UserPromptSubmit again with `prompt: ""` and
//   the same prompt_id (the turn goes on), then Stop;
// - `ask_user_question`: the same, its questions in PermissionRequest's `tool_input`;
// - Esc during a turn, or a refused tool: no Stop, only `idle_prompt` (without a prompt_id);
// - `/clear`: SessionEnd (`reason: clear`), SessionStart (`source: clear`) of a NEW session id;
// - a message sent while it works steers into the turn: no UserPromptSubmit, one Stop for both.

/** qwen's question tool: its input is AskUserQuestion's. */
const QUESTION_TOOL = 'ask_user_question';

export function qwenSignal(payload: unknown): SignalResult {
  if (!isJsonObject(payload)) return claudeSignal(payload);
  const event = payload.hook_event_name;
  if (event === 'PermissionRequest') {
    const sessionId = textField(payload, 'session_id');
    if (sessionId === null || !isValidId(sessionId)) return { kind: 'ignored', why: 'PermissionRequest: session_id is not a valid id' };
    // Any other tool: the permission_prompt Notification that follows says so.
    if (payload.tool_name !== QUESTION_TOOL) return { kind: 'ignored', why: `PermissionRequest of tool ${JSON.stringify(payload.tool_name ?? null)}` };
    return { kind: 'signal', signal: questionSignal('PermissionRequest', sessionId, payload.tool_input, 'qwen') };
  }
  const result = claudeSignal(payload);
  // qwen's idle_prompt is its return to the prompt (a question asked has ended with it), not
  // claude's reminder while something waits.
  if (result.kind === 'signal' && payload.notification_type === 'idle_prompt') return { kind: 'signal', signal: { ...result.signal, yieldsToQuestion: false } };
  return result;
}

/**
 * A turn starts at UserPromptSubmit (a tool's continuation, `prompt: ""` under the same prompt_id,
 * is the turn under way) and ends at Stop with the reply, or at `idle_prompt` without one (a turn
 * cancelled or refused fires no Stop; after a Stop it names the turn that ended, told again).
 */
export function qwenTurnOf(payload: unknown): TurnMark | null {
  const mark = claudeTurnOf(payload);
  if (mark?.kind === 'start' && mark.prompt === '') return { ...mark, prompt: null };
  if (mark !== null || !isJsonObject(payload) || payload.hook_event_name !== 'Notification' || payload.notification_type !== 'idle_prompt') return mark;
  const sessionId = textField(payload, 'session_id');
  if (sessionId === null || !isValidId(sessionId)) return null;
  const promptId = textField(payload, 'prompt_id');
  return { kind: 'end', sessionId, reply: null, ...(promptId === null || promptId === '' ? {} : { id: promptId.slice(0, 200) }) };
}
