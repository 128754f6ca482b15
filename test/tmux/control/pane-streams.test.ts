import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Answer, ControlConnection } from '../../../src/tmux/control/connection.js';
import type { ControlRunner } from '../../../src/tmux/control/control-runner.js';
import type { ControlEvent } from '../../../src/tmux/control/parser.js';
import { BUDGET_BYTES, PaneStreams, type PaneEvent } from '../../../src/tmux/control/pane-streams.js';

/** A connection that records each line sent and lets the test answer it, and a runner around it. */
function fakeLink(now: () => number = Date.now) {
  const sent: Array<{ line: string; done: (answer: Answer) => void }> = [];
  const events = new Set<(event: ControlEvent) => void>();
  const connection = {
    send: (commands: readonly (readonly string[])[], done: (answer: Answer) => void) => sent.push({ line: commands.map((c) => c.join(' ')).join(' ; '), done }),
  } as unknown as ControlConnection;
  const runner = {
    current: () => connection,
    onEvent: (l: (event: ControlEvent) => void) => events.add(l),
    onConnected: () => () => undefined,
  } as unknown as ControlRunner;
  const streams = new PaneStreams(runner, '$1', '3.3a', now);
  const answer = (index: number, output: string) => sent[index]!.done({ ok: true, output });
  const emit = (event: ControlEvent) => {
    for (const l of events) l(event);
  };
  const lines = () => sent.map((s) => s.line);
  return { streams, sent, answer, emit, lines };
}

const SCREEN = '80 24 2 0 1\n$ ';
const out = (pane: string, text: string): ControlEvent => ({ kind: 'output', pane, data: Buffer.from(text) });

/** A watch of %5 started and answered: the sink's events so far. */
function watching(link: ReturnType<typeof fakeLink>, keepUp: () => boolean = () => true) {
  const got: PaneEvent[] = [];
  const watch = link.streams.watch('%5', (e) => (got.push(e), keepUp()));
  link.answer(0, '%0\n%5\n%7');
  return { got, watch };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('PaneStreams', () => {
  it('turns the other panes off, lets output through, and starts the pane from its screen in one line', () => {
    const link = fakeLink();
    const { got } = watching(link);
    expect(link.lines()).toEqual([
      'list-panes -s -t $1 -F #{pane_id}',
      'refresh-client -A %0:off -A %7:off',
      'refresh-client -f !no-output,pause-after=2 -A %5:off ; refresh-client -A %5:on ; display-message -p -t %5 #{pane_width} #{pane_height} #{cursor_x} #{cursor_y} #{cursor_flag} ; capture-pane -p -e -t %5',
    ]);
    // Output before the screen's answer is not the watcher's.
    link.emit(out('%5', 'early'));
    link.answer(2, SCREEN);
    link.emit(out('%5', 'after'));
    expect(got.map((e) => e.kind)).toEqual(['screen', 'output']);
    expect(got[0]).toMatchObject({ kind: 'screen', width: 80, height: 24 });
    expect(got[1]).toEqual({ kind: 'output', data: Buffer.from('after') });
  });

  it('turns off, once, a pane nobody watches that sends output', () => {
    const link = fakeLink();
    watching(link);
    link.answer(2, SCREEN);
    link.emit(out('%9', 'x'));
    link.emit(out('%9', 'y'));
    expect(link.lines().filter((l) => l === 'refresh-client -A %9:off')).toHaveLength(1);
  });

  it('a watcher behind its socket pauses the pane; resumed, it gets the output from a fresh screen', () => {
    const link = fakeLink();
    let keepUp = true;
    const { got, watch } = watching(link, () => keepUp);
    link.answer(2, SCREEN);
    keepUp = false;
    link.emit(out('%5', 'fills the socket'));
    expect(link.lines().at(-1)).toBe('refresh-client -A %5:pause');
    link.emit(out('%5', 'dropped'));
    keepUp = true;
    watch.resume();
    expect(link.lines().at(-1)).toMatch(/^refresh-client -A %5:continue ; display-message .* ; capture-pane -p -e -t %5$/);
    link.answer(link.sent.length - 1, `%continue %5\n${SCREEN}`);
    link.emit(out('%5', 'new'));
    expect(got.map((e) => (e.kind === 'output' ? e.data.toString() : e.kind))).toEqual(['screen', 'fills the socket', 'screen', 'new']);
  });

  it('one watcher behind does not pause the pane for another; it gets a screen of its own when it resumes', () => {
    const link = fakeLink();
    const { got: first } = watching(link);
    link.answer(2, SCREEN);
    let keepUp = true;
    const second: PaneEvent[] = [];
    const watch = link.streams.watch('%5', (e) => (second.push(e), keepUp));
    expect(link.lines().at(-1)).toMatch(/^display-message .* ; capture-pane -p -e -t %5$/);
    link.answer(3, SCREEN);
    keepUp = false;
    link.emit(out('%5', 'a'));
    link.emit(out('%5', 'b'));
    expect(link.lines().some((l) => l.includes(':pause'))).toBe(false);
    keepUp = true;
    watch.resume();
    link.answer(link.sent.length - 1, SCREEN);
    link.emit(out('%5', 'c'));
    expect(first.map((e) => e.kind)).toEqual(['screen', 'output', 'output', 'output']);
    expect(second.map((e) => (e.kind === 'output' ? e.data.toString() : e.kind))).toEqual(['screen', 'a', 'screen', 'c']);
  });

  it('a flood past its budget is paused for the rest of the window, then shown from a screen', () => {
    vi.useFakeTimers();
    let clock = 1_000;
    const link = fakeLink(() => clock);
    const { got } = watching(link);
    link.answer(2, SCREEN);
    link.emit({ kind: 'output', pane: '%5', data: Buffer.alloc(BUDGET_BYTES, 0x61) });
    clock += 10;
    link.emit(out('%5', 'over'));
    expect(link.lines().at(-1)).toBe('refresh-client -A %5:pause');
    link.emit(out('%5', 'dropped'));
    vi.advanceTimersByTime(100);
    expect(link.lines().at(-1)).toMatch(/^refresh-client -A %5:continue ; display-message/);
    link.answer(link.sent.length - 1, `%continue %5\n${SCREEN}`);
    expect(got.map((e) => e.kind)).toEqual(['screen', 'output', 'screen']);
  });

  it('a pane tmux paused (its output waited too long) is continued at once from a screen', () => {
    const link = fakeLink();
    const { got } = watching(link);
    link.answer(2, SCREEN);
    link.emit({ kind: 'pause', pane: '%5' });
    expect(link.lines().at(-1)).toMatch(/^refresh-client -A %5:continue ; display-message/);
    link.answer(link.sent.length - 1, `%continue %5\n${SCREEN}`);
    expect(got.map((e) => e.kind)).toEqual(['screen', 'screen']);
  });

  it('the last watcher gone: the pane off, and no output for the client at all', () => {
    const link = fakeLink();
    const { watch } = watching(link);
    link.answer(2, SCREEN);
    watch.stop();
    expect(link.lines().slice(-2)).toEqual(['refresh-client -A %5:off', 'refresh-client -f no-output']);
  });

  it('ends the stream when the pane is gone', () => {
    const link = fakeLink();
    const { got } = watching(link);
    link.answer(2, SCREEN);
    link.emit({ kind: 'window', change: 'close', window: '@3' });
    link.answer(link.sent.length - 1, '');
    expect(got.at(-1)).toEqual({ kind: 'end', reason: 'the pane is gone' });
  });

  it('ends the stream of a pane tmux gives no screen of, and turns its output off', () => {
    const link = fakeLink();
    const { got } = watching(link);
    link.answer(2, 'not a screen');
    expect(got.at(-1)).toEqual({ kind: 'end', reason: 'tmux gave no screen' });
    expect(link.lines().slice(-2)).toEqual(['refresh-client -A %5:off', 'refresh-client -f no-output']);
  });

  it('refuses on tmux 3.2, and without a connection', () => {
    const runner = { current: () => null, onEvent: () => undefined, onConnected: () => undefined } as unknown as ControlRunner;
    expect(() => new PaneStreams(runner, '$1', '3.2a').watch('%5', () => true)).toThrow(/tmux 3.3/);
    expect(() => new PaneStreams(null, '$1', '3.3a').watch('%5', () => true)).toThrow(/control connection/);
  });
});
