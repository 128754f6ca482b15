// What send types: refused texts (named, with where), and the text as it goes in.
import { describe, expect, it } from 'vitest';
import { checkMessage, SEND_MAX_BYTES } from '../../../src/fleet/delivery/message.js';

const agent = { maxBytes: SEND_MAX_BYTES, agent: true, bracketedPaste: true };
const plain = { ...agent, agent: false };

describe('checkMessage', () => {
  it.each([
    ['an end of bracketed paste', 'a\x1b[201~b', agent, /escape character \(U\+001B\) at character 2: .*ESC\[201~ would end the paste early/],
    ['any escape sequence', '\x1b[A', agent, /escape character/],
    ['a NUL', 'a\0', agent, /a NUL byte at character 2/],
    ['a bell', 'ding\x07', agent, /control character U\+0007 at character 5/],
    ['a C1 control', 'a\u009bb', agent, /control character U\+009B/],
    ['DEL', 'a\x7f', agent, /control character U\+007F/],
    ['a lone surrogate', 'a\ud800b', agent, /lone UTF-16 surrogate/],
    ['nothing', ' \n\t ', agent, /nothing to send/],
    ['too much', 'é'.repeat(600), { ...agent, maxBytes: 1000 }, /1200 bytes, over the limit of 1000 \(sendMaxBytes in config.json\)/],
    ['a long line to a plain command', `ok\n${'x'.repeat(1024)}`, plain, /line 2 is over 1023 bytes: a terminal in cooked mode drops a longer line/],
    ['lines to an agent without bracketed paste', 'a\nb', { ...agent, bracketedPaste: false }, /a newline would submit the first line alone/],
  ] as const)('refuses %s', (_what, text, rules, problem) => {
    const checked = checkMessage(text, rules);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problem).toMatch(problem);
  });

  it.each([
    ['CRLF and a lone CR as LF', 'a\r\nb\rc', 'a\nb\nc'],
    ['tabs, quotes, shell words and unicode as they are', 'x\t"$(rm -rf ~)" `id` ✓ 😀', 'x\t"$(rm -rf ~)" `id` ✓ 😀'],
    ['a text of exactly the limit', 'x'.repeat(SEND_MAX_BYTES), 'x'.repeat(SEND_MAX_BYTES)],
  ])('takes %s', (_what, text, typed) => {
    expect(checkMessage(text, agent)).toEqual({ ok: true, text: typed });
  });

  it('takes a line of 1023 bytes and several lines for a plain command', () => {
    expect(checkMessage(`${'x'.repeat(1023)}\nls`, plain).ok).toBe(true);
  });
});

describe("an agent's own limit", () => {
  it("refuses what copilot would save to a file rather than take as the message", () => {
    const checked = checkMessage('x'.repeat(20_000), { ...agent, agentMax: { bytes: 16 * 1024, why: 'copilot saves it to a file' } });
    expect(!checked.ok && checked.problem).toMatch(/20000 bytes, over the 16384 this agent takes as a message: copilot saves it to a file/);
  });
});
