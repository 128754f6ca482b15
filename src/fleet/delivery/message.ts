// Which texts `send` types, and how: a message reaches an agent as one paste and a plain
// command as typed lines, and nothing in it may become a key the text did not mean. An escape
// character is refused outright (ESC[201~ would end a bracketed paste early and turn the rest
// into keystrokes; any other sequence is a key), as are NUL, the other control characters but
// tab and newline, and a text over the size limit. Pure.

/** The default of `sendMaxBytes` (config.json). */
export const SEND_MAX_BYTES = 256 * 1024;

/**
 * A line a terminal in canonical (cooked) mode takes: the kernel's line buffer drops what is
 * past it (4096 on Linux, 1024 elsewhere; agent-deck #1793), so a plain command never gets a
 * longer one.
 */
export const COOKED_LINE_MAX = 1023;

/** A UTF-16 surrogate without its other half: no Unicode character, so no text a terminal can be given. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type Checked = { ok: true; text: string } | { ok: false; problem: string };

export interface MessageRules {
  maxBytes: number;
  /** The agent's own limit of a paste it takes as the message, and why (copilot's). */
  agentMax?: { bytes: number; why: string };
  /** An agent takes the message as one paste; a plain command gets lines as typed. */
  agent: boolean;
  /** The agent turns bracketed paste on: newlines stay inside the message. */
  bracketedPaste: boolean;
}

/** The text as it will be typed (line ends as LF), or why it is refused. */
export function checkMessage(raw: string, rules: MessageRules): Checked {
  if (LONE_SURROGATE.test(raw)) return { ok: false, problem: 'the text holds a lone UTF-16 surrogate (not valid Unicode): it cannot be typed as it is' };
  // CRLF and a lone CR are line ends, as a composer takes them; a CR left alone would press Enter.
  const text = raw.replace(/\r\n?/g, '\n');
  if (text.trim() === '') return { ok: false, problem: 'nothing to send: the text is empty' };
  const bytes = Buffer.byteLength(text);
  if (bytes > rules.maxBytes) return { ok: false, problem: `the text is ${bytes} bytes, over the limit of ${rules.maxBytes} (sendMaxBytes in config.json)` };
  if (rules.agentMax !== undefined && bytes > rules.agentMax.bytes) return { ok: false, problem: `the text is ${bytes} bytes, over the ${rules.agentMax.bytes} this agent takes as a message: ${rules.agentMax.why}` };
  const control = firstControl(text);
  if (control !== null) return { ok: false, problem: `the text holds ${control.name} at character ${control.at + 1}: ${control.why}` };
  if (!rules.agent) {
    const long = text.split('\n').findIndex((line) => Buffer.byteLength(line) > COOKED_LINE_MAX);
    if (long >= 0) return { ok: false, problem: `line ${long + 1} is over ${COOKED_LINE_MAX} bytes: a terminal in cooked mode drops a longer line, so a plain command would not get it` };
  } else if (!rules.bracketedPaste && text.includes('\n')) {
    return { ok: false, problem: 'this agent does not take a pasted message whole (no bracketed paste): a newline would submit the first line alone; send one line' };
  }
  return { ok: true, text };
}

function firstControl(text: string): { at: number; name: string; why: string } | null {
  // eslint-disable-next-line no-control-regex
  const match = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.exec(text);
  if (match === null) return null;
  const code = match[0].codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code === 0) return { at: match.index, name: 'a NUL byte', why: 'a terminal cannot be sent it as text' };
  if (code === 0x1b) {
    return { at: match.index, name: `an escape character (${hex})`, why: 'an escape sequence reaches the agent as keys (ESC[201~ would end the paste early and type the rest as keystrokes); send text only' };
  }
  return { at: match.index, name: `the control character ${hex}`, why: 'control characters reach the program as keys, not text; send text only (tabs and newlines are fine)' };
}
