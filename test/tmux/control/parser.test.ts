import { describe, expect, it } from 'vitest';
import { ControlParser, MAX_LINE_BYTES, unescapeOctal, type ControlEvent } from '../../../src/tmux/control/parser.js';

const parse = (text: string | Buffer): ControlEvent[] => new ControlParser().push(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'));
const block = (lines: string[], { number = 7, ok = true, fromClient = true, time = 1700000000 } = {}): ControlEvent => ({ kind: 'block', time, number, fromClient, ok, lines });

describe('ControlParser: command blocks', () => {
  it.each<[string, string, ControlEvent[]]>([
    ['an empty block', '%begin 1700000000 7 1\n%end 1700000000 7 1\n', [block([])]],
    ['a block of output lines, an empty one kept', '%begin 1700000000 7 1\na\n\nb c\n%end 1700000000 7 1\n', [block(['a', '', 'b c'])]],
    ['an error block', '%begin 1700000000 7 1\ncan\'t find pane: %9\n%error 1700000000 7 1\n', [block(["can't find pane: %9"], { ok: false })]],
    ['a block tmux ran for the client (a hook) has flags 0', '%begin 1700000000 8 0\nHOOK\n%end 1700000000 8 0\n', [block(['HOOK'], { number: 8, fromClient: false })]],
    [
      'lines that look like guards of other commands are output',
      '%begin 1700000000 7 1\n%end 1700000000 6 1\n%end 1700000001 7 1\n%end 1700000000 7 0\n%error 1700000000 8 1\n%begin 1700000000 9 1\n%end  1700000000 7 1\n%end 1700000000 7 1 \n%end 1700000000 7 1\n',
      [block(['%end 1700000000 6 1', '%end 1700000001 7 1', '%end 1700000000 7 0', '%error 1700000000 8 1', '%begin 1700000000 9 1', '%end  1700000000 7 1', '%end 1700000000 7 1 '])],
    ],
    [
      'lines that look like notifications are output inside a block',
      '%begin 1700000000 7 1\n%window-close @3\n%output %1 x\n%exit\n%subscription-changed t $0 @0 0 %0 : forged\n%end 1700000000 7 1\n',
      [block(['%window-close @3', '%output %1 x', '%exit', '%subscription-changed t $0 @0 0 %0 : forged'])],
    ],
    ['a pane\'s own bytes in output (an escape, invalid UTF-8 replaced)', '%begin 1700000000 7 1\n\x1b[31mred\x1b[0m ☃\n%end 1700000000 7 1\n', [block(['\x1b[31mred\x1b[0m ☃'])]],
    [
      'blocks one after another, numbers growing',
      '%begin 1700000000 7 1\na\n%end 1700000000 7 1\n%begin 1700000001 9 1\nb\n%end 1700000001 9 1\n',
      [block(['a']), block(['b'], { number: 9, time: 1700000001 })],
    ],
    ['the command counter wrapping at 2^32', '%begin 1 4294967295 1\n%end 1 4294967295 1\n%begin 1 0 1\n%end 1 0 1\n', [block([], { time: 1, number: 4294967295 }), block([], { time: 1, number: 0 })]],
  ])('%s', (_, text, events) => {
    expect(parse(text)).toEqual(events);
  });

  it('gives the same events whatever the chunks (every split point of the stream)', () => {
    const text = Buffer.from('%begin 1700000000 7 1\nline ☃\n%end 1700000000 7 1\n%output %3 a\\015\\012\\134b\n%window-add @2\n%subscription-changed t $1 @2 3 %4 : x : y\n');
    const whole = parse(text);
    expect(whole).toHaveLength(4);
    for (let cut = 0; cut <= text.length; cut++) {
      const parser = new ControlParser();
      expect([...parser.push(text.subarray(0, cut)), ...parser.push(text.subarray(cut))], `cut at ${cut}`).toEqual(whole);
    }
    const parser = new ControlParser();
    expect([...text].flatMap((byte) => parser.push(Buffer.from([byte])))).toEqual(whole);
  });
});

describe('ControlParser: what cannot be tmux\'s own stream is a desync, and nothing is read after it', () => {
  it.each<[string, string]>([
    ['a line outside a block that is not a notification', 'hello\n'],
    ['an empty line outside a block', '\n'],
    ['%end with no block open', '%end 1700000000 7 1\n'],
    ['%error with no block open', '%error 1700000000 7 1\n'],
    ['a malformed %begin', '%begin 1700000000 x 1\n'],
    ['a %begin missing its flags', '%begin 1700000000 7\n'],
    ['a block number that does not grow', '%begin 1 7 1\n%end 1 7 1\n%begin 1 7 1\n'],
    ['a block number going back', '%begin 1 7 1\n%end 1 7 1\n%begin 1 3 1\n'],
    // A program printed the current command's exact %end on its screen: the capture's real
    // lines after it come outside any block.
    ['a forged %end, then the rest of the real output', '%begin 1700000000 7 1\nscreen\n%end 1700000000 7 1\nmore screen\n%end 1700000000 7 1\n'],
    ['a forged %end and %begin again with the same number', '%begin 1700000000 7 1\n%end 1700000000 7 1\n%begin 1700000000 7 1\n'],
    ['a forged %end and a forged next block, then the real %end', '%begin 1700000000 7 1\n%end 1700000000 7 1\n%begin 1700000000 8 1\n%end 1700000000 8 1\n%end 1700000000 7 1\n'],
  ])('%s', (_, text) => {
    const parser = new ControlParser();
    const events = parser.push(Buffer.from(text));
    expect(events.at(-1)?.kind).toBe('desync');
    expect(events.filter((e) => e.kind === 'desync')).toHaveLength(1);
    expect(parser.push(Buffer.from('%window-add @1\n%begin 2000000000 99 1\n%end 2000000000 99 1\n'))).toEqual([]);
  });

  it('a line longer than any of tmux\'s', () => {
    const parser = new ControlParser();
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let events: ControlEvent[] = parser.push(Buffer.from('%begin 1 1 1\n'));
    for (let i = 0; i * chunk.length <= MAX_LINE_BYTES && events.length === 0; i++) events = parser.push(chunk);
    expect(events).toEqual([{ kind: 'desync', why: expect.stringContaining('a line of more than') }]);
  });
});

describe('ControlParser: notifications', () => {
  it.each<[string, string, ControlEvent]>([
    ['%output, octal escapes decoded', '%output %12 a\\015\\012b\\134\\033[0m\n', { kind: 'output', pane: '%12', data: Buffer.from('a\r\nb\\\x1b[0m') }],
    ['%output, an empty value', '%output %12 \n', { kind: 'output', pane: '%12', data: Buffer.alloc(0) }],
    ['%output, spaces and colons kept', '%output %1  a : b \n', { kind: 'output', pane: '%1', data: Buffer.from(' a : b ') }],
    ['%output, a backslash not followed by three octal digits kept', '%output %1 \\9\\01x\\\n', { kind: 'output', pane: '%1', data: Buffer.from('\\9\\01x\\') }],
    ['%extended-output', '%extended-output %3 120 : hi\\012\n', { kind: 'output', pane: '%3', data: Buffer.from('hi\n') }],
    ['%extended-output with arguments for future use', '%extended-output %3 120 x y : a : b\n', { kind: 'output', pane: '%3', data: Buffer.from('a : b') }],
    ['%extended-output, an empty value', '%extended-output %3 0 : \n', { kind: 'output', pane: '%3', data: Buffer.alloc(0) }],
    ['%window-add', '%window-add @4\n', { kind: 'window', change: 'add', window: '@4' }],
    ['%window-close', '%window-close @4\n', { kind: 'window', change: 'close', window: '@4' }],
    ['%unlinked-window-close', '%unlinked-window-close @4\n', { kind: 'window', change: 'unlinked-close', window: '@4' }],
    ['%unlinked-window-add', '%unlinked-window-add @4\n', { kind: 'window', change: 'unlinked-add', window: '@4' }],
    ['%pane-mode-changed', '%pane-mode-changed %5\n', { kind: 'pane-mode', pane: '%5' }],
    ['%pause', '%pause %5\n', { kind: 'pause', pane: '%5' }],
    ['%continue', '%continue %5\n', { kind: 'continue', pane: '%5' }],
    ['%session-changed', '%session-changed $3 fleet one\n', { kind: 'session-changed', session: '$3' }],
    ['%exit', '%exit\n', { kind: 'exit', reason: null }],
    ['%exit with a reason', '%exit too far behind\n', { kind: 'exit', reason: 'too far behind' }],
    ['a pane subscription', '%subscription-changed title $0 @1 2 %3 : ✋  Action Required (work)   \n', { kind: 'subscription', name: 'title', session: '$0', window: '@1', pane: '%3', value: '✋  Action Required (work)   ' }],
    ['a value holding " : "', '%subscription-changed title $0 @1 2 %3 : a : b\n', { kind: 'subscription', name: 'title', session: '$0', window: '@1', pane: '%3', value: 'a : b' }],
    ['a subscription with arguments for future use', '%subscription-changed title $0 @1 2 %3 x y : v\n', { kind: 'subscription', name: 'title', session: '$0', window: '@1', pane: '%3', value: 'v' }],
    ['an empty value', '%subscription-changed title $0 @1 2 %3 :\n', { kind: 'subscription', name: 'title', session: '$0', window: '@1', pane: '%3', value: '' }],
    ['a session subscription', '%subscription-changed s $0 - - - : 5\n', { kind: 'subscription', name: 's', session: '$0', window: '', pane: null, value: '5' }],
    ['an unknown notification', '%layout-change @1 abcd,80x24,0,0,1 abcd,80x24,0,0,1 *\n', { kind: 'notice', name: 'layout-change' }],
    ['a window notification with a bad id', '%window-close 3\n', { kind: 'notice', name: 'window-close' }],
    ['a window notification with more words', '%window-close @3 @4\n', { kind: 'notice', name: 'window-close' }],
    ['%output with a bad pane', '%output 12 x\n', { kind: 'notice', name: 'output' }],
    ['%pause with a bad pane', '%pause @1\n', { kind: 'notice', name: 'pause' }],
    ['a subscription with no " : "', '%subscription-changed title $0 @1 2 %3 v\n', { kind: 'notice', name: 'subscription-changed' }],
    ['a subscription with a bad session', '%subscription-changed title 0 @1 2 %3 : v\n', { kind: 'notice', name: 'subscription-changed' }],
  ])('%s', (_, text, event) => {
    expect(parse(text)).toEqual([event]);
  });

  it('keeps a pane\'s bytes that are not UTF-8 as they are', () => {
    const raw = Buffer.concat([Buffer.from('%output %1 '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('\\000\n')]);
    expect(parse(raw)).toEqual([{ kind: 'output', pane: '%1', data: Buffer.from([0xff, 0xfe, 0xc3, 0]) }]);
  });
});

describe('unescapeOctal', () => {
  it.each<[string, Buffer]>([
    ['', Buffer.alloc(0)],
    ['plain', Buffer.from('plain')],
    ['\\000\\037\\134\\377', Buffer.from([0, 31, 92, 255])],
    ['\\\\', Buffer.from('\\\\')],
    ['\\1', Buffer.from('\\1')],
    ['\\08x', Buffer.from('\\08x')],
    ['x\\012', Buffer.from('x\n')],
  ])('%j', (text, bytes) => {
    expect(unescapeOctal(Buffer.from(text, 'latin1'))).toEqual(bytes);
  });
});
