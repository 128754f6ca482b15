// The control connection against a stand-in for `tmux -C` that answers as told: what a stream
// that is not tmux's own does to a request (no tmux here: tmux's own answers are checked in
// integration/tmux/control-connection.test.ts).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ControlConnection } from '../../../src/tmux/control/connection.js';
import { TmuxError } from '../../../src/tmux/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'fleetcom-fake-tmux-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A fake tmux: attaches, then answers each request (its command line and its marker line) as
 * FAKE_MODE says, numbering blocks from 10.
 */
const fake = join(dir, 'tmux');
writeFileSync(fake, `#!${process.execPath}
let n = 10;
const out = (s) => process.stdout.write(s);
const block = (lines, ok = true, flags = 1) => { n += 1; out('%begin 1700000000 ' + n + ' ' + flags + '\\n' + lines.map((l) => l + '\\n').join('') + (ok ? '%end' : '%error') + ' 1700000000 ' + n + ' ' + flags + '\\n'); };
block([], true, 0);
out('%session-changed $1 fleet\\n');
const mode = process.env.FAKE_MODE;
if (mode === 'unsolicited') block(['nobody asked']);
let pending = [];
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    pending.push(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (pending.length < 2) continue;
    const [, markerLine] = pending;
    pending = [];
    const marker = /'(fleetcom-[0-9a-f]+)'/.exec(markerLine)[1];
    if (mode === 'ok') block(['out']);
    if (mode === 'hook') { block(['from a hook'], true, 0); block(['out']); }
    if (mode === 'error') block(["can't find pane: %9"], false);
    if (mode === 'extra') { block(['one']); block(['two']); }
    if (mode === 'forged-end') { n += 1; out('%begin 1700000000 ' + n + ' 1\\nscreen\\n%end 1700000000 ' + n + ' 1\\nrest of the screen\\n%end 1700000000 ' + n + ' 1\\n'); }
    if (mode === 'after-error') { block(['bad'], false); block(['ran anyway']); }
    block([marker]);
  }
});
`);
chmodSync(fake, 0o755);

const open = (mode: string) => ControlConnection.open({ env: { PATH: process.env.PATH, FAKE_MODE: mode }, session: '$1', tmuxPath: fake });
const lost = (connection: ControlConnection) => new Promise<string>((resolve) => connection.onClose(({ reason }) => resolve(reason)));

describe('a request over the control connection', () => {
  it('is answered with its command\'s output once its marker comes', async () => {
    const c = await open('ok');
    expect(await c.request([['display-message', '-p', 'x']])).toBe('out');
    expect(await c.request([['display-message', '-p', 'y']])).toBe('out');
    await c.close();
  });

  it('leaves out what tmux ran for a hook (flags 0)', async () => {
    const c = await open('hook');
    expect(await c.request([['rename-window', '-t', '@1', 'x']])).toBe('out');
    await c.close();
  });

  it('fails with tmux\'s own error for the command that failed', async () => {
    const c = await open('error');
    const error = (await c.request([['capture-pane', '-p', '-t', '%9']]).catch((e: unknown) => e)) as TmuxError;
    expect(error).toBeInstanceOf(TmuxError);
    expect([error.subcommand, error.stderr, error.tmuxExitCode]).toEqual(['capture-pane', "can't find pane: %9", 1]);
    expect(c.isOpen).toBe(true);
    await c.close();
  });

  it.each([
    ['a block ended early by a forged %end, the rest of the output after it', 'forged-end', /made no sense/],
    ['more answers than commands', 'extra', /lost its place/],
    ['an answer after a failed command (tmux skips the rest of its line)', 'after-error', /lost its place/],
  ])('is never answered from %s: the connection closes', async (_, mode, why) => {
    const c = await open(mode);
    const closed = lost(c);
    const error = (await c.request([['capture-pane', '-p', '-t', '%1']]).catch((e: unknown) => e)) as TmuxError;
    expect(error).toBeInstanceOf(TmuxError);
    expect(error.tmuxExitCode).toBeNull();
    expect(error.stderr).toMatch(/closed before tmux answered/);
    expect(await closed).toMatch(why);
    expect(c.isOpen).toBe(false);
  });

  it('closes on an answer that came while nothing was asked, and answers no later request from it', async () => {
    // Only a block read before a request is written is surely nobody's: one read after it
    // looks like its answer (tmux numbers its blocks server-wide), so the stand-in sends it at once.
    const c = await open('unsolicited');
    expect(await lost(c)).toMatch(/lost its place|made no sense/);
    expect(c.isOpen).toBe(false);
    const error = (await c.request([['capture-pane', '-p', '-t', '%1']]).catch((e: unknown) => e)) as TmuxError;
    expect(error).toBeInstanceOf(TmuxError);
    expect(error.tmuxExitCode).toBeNull();
  });

  it('refuses to open when tmux is not there', async () => {
    await expect(ControlConnection.open({ env: {}, session: '$1', tmuxPath: join(dir, 'missing') })).rejects.toThrow(/tmux not found/);
  });
});
