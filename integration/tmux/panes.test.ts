// listPanes, capturePane, clearHistory and exit statuses against a real private tmux server.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.js';
import { paneRecord, waitForDeath, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { paneWithText } from '../../src/tmux/panes.js';

const KEEP = { 'remain-on-exit': 'on' };

describe('exit statuses', () => {
  it.each([
    ['exit 0', 0],
    ['exit 1', 1],
    ['exit 42', 42],
  ])('`%s` leaves a dead pane with status %i', async (script, status) => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const w = await sb.ops.newWindow({ session, name: 't', cwd: sb.dir, argv: ['sh', '-c', script], windowOptions: KEEP });
    const dead = await waitForDeath(sb, session, w.paneId);
    expect(dead).toMatchObject({ paneDeadStatus: status, paneDeadSignal: null });
  });

  it('a dead record always carries its status, even polled as fast as possible (3.3a race)', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    for (let i = 0; i < 15; i++) {
      const w = await sb.ops.newWindow({ session, name: 't', cwd: sb.dir, argv: ['sh', '-c', 'exit 0'], windowOptions: KEEP });
      const dead = await waitForDeath(sb, session, w.paneId);
      expect(dead).toMatchObject({ paneDeadStatus: 0, paneExited: true });
      await sb.ops.killWindow(w.windowId);
    }
  });

  it('every fast exit is reaped and reported by pane-died while listPanes polls (tmux 3.3a misses some SIGCHLDs)', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const log = join(sb.dir, 'died.log');
    const hook = `run-shell -b "echo '#{hook_pane} #{pane_dead_status}' >> ${log}"`;
    const panes: string[] = [];
    for (let i = 0; i < 40; i++) {
      const w = await sb.ops.newWindow({
        session, name: 't', cwd: sb.dir, argv: ['false'], windowOptions: KEEP, windowHooks: { 'pane-died': hook },
      });
      panes.push(w.paneId);
    }
    await waitFor(async () => (await sb.ops.listPanes(session)).filter((p) => p.paneDead && p.paneDeadStatus === 1).length === 40, {
      what: 'all 40 panes dead with status 1',
    });
    const lines = await waitFor(
      async () => {
        const text = await readFile(log, 'utf8').catch(() => '');
        const got = text.split('\n').filter((l) => l !== '');
        return got.length >= 40 ? got : false;
      },
      { what: '40 pane-died hook lines' },
    );
    expect(lines.sort()).toEqual(panes.map((p) => `${p} 1`).sort());
  });
});

describe('listPanes', () => {
  it('reads every pane of the session with the fleetcom window options', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const before = Math.floor(Date.now() / 1000) - 1;
    const w = await sb.ops.newWindow({
      session, name: 'tagged', cwd: sb.dir, argv: ['sleep', '1000'],
      windowOptions: { '@fleetcom-task': '3', '@fleetcom-run': '2', '@fleetcom-socket': `${sb.dir}/a b/default.sock` },
    });
    const rows = await sb.ops.listPanes(session);
    expect(rows).toHaveLength(2);
    const [shell, task] = rows;
    // The session's first window is named by automatic-rename after whatever its pane runs at
    // that moment: 'tmux' until the shell has been exec'd, 'sh' after (seen on a loaded machine).
    expect(shell).toMatchObject({ sessionId: session, fleetcomTask: null, fleetcomRun: null, fleetcomSocket: null });
    expect(['tmux', 'sh']).toContain(shell?.windowName);
    expect(task).toMatchObject({
      paneId: w.paneId, windowId: w.windowId, windowName: 'tagged', sessionId: session, paneDead: false,
      panePid: w.panePid, fleetcomTask: 3, fleetcomRun: 2, fleetcomSocket: `${sb.dir}/a b/default.sock`,
    });
    expect(task?.windowActivity).toBeGreaterThanOrEqual(before);
  });

  it('reads values with newlines and non-ASCII text even in a C locale', async () => {
    const sb = await useSandbox();
    sb.env.LANG = 'C';
    const session = await sb.startServer();
    const w = await sb.ops.newWindow({
      session, name: 'é 名 x', cwd: sb.dir, argv: ['sleep', '1000'], windowOptions: { '@fleetcom-socket': '/x\ny/\u00e9.sock' },
    });
    const row = await paneRecord(sb, session, w.paneId);
    expect(row?.windowName).toBe('é 名 x');
    expect(row?.fleetcomSocket).toBe('/x\ny/\u00e9.sock');
  });
});

describe('capturePane', () => {
  it('reads the whole retained text of a dead pane, history included, with trailing spaces trimmed', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    // tmux discards what a pane printed but it had not read yet when the process exits (its
    // maintainer: "we discard the remaining output"); 200 lines on a loaded machine can be
    // that late, so the script lets tmux catch up before it exits.
    const script = 'i=1; while [ $i -le 200 ]; do echo "line $i   "; i=$((i+1)); done; echo "last line"; sleep 1; exit 1';
    const w = await sb.ops.newWindow({ session, name: 't', cwd: sb.dir, argv: ['sh', '-c', script], windowOptions: KEEP });
    await waitForDeath(sb, session, w.paneId);
    const all = await sb.ops.capturePane(w.paneId, { history: true });
    const lines = all.split('\n');
    expect(lines[0]).toBe('line 1');
    expect(lines).toContain('line 200');
    expect(lines).toContain('last line');
    expect(lines.every((l) => !/[ \t]$/.test(l))).toBe(true);
    expect(all).toMatch(/Pane is dead/);
    const screen = await sb.ops.capturePane(w.paneId, { history: false });
    expect(screen).not.toContain('line 1\n');
    expect(screen).toContain('last line');
  });

  it('joins a wrapped line', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const long = `claude --resume ${'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d'} ${'x'.repeat(300)}`;
    // The pane stays alive: tmux drops what a process printed and it had not read yet when the
    // process exits at once (README, a known tmux limit), which made a bare printf flaky.
    const w = await sb.ops.newWindow({ session, name: 't', cwd: sb.dir, argv: ['sh', '-c', 'printf "%s\\n" "$1"; exec sleep 600', 'sh', long], windowOptions: KEEP });
    const joined = await waitFor(async () => (await sb.ops.capturePane(w.paneId, { history: true })).split('\n').includes(long), {
      what: 'the long line, joined, in the capture',
    });
    expect(joined).toBe(true);
  });

  it('clearHistory drops the scrollback but not the screen', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const script = 'i=1; while [ $i -le 100 ]; do echo "row $i"; i=$((i+1)); done; exec sleep 1000';
    const w = await sb.ops.newWindow({ session, name: 't', cwd: sb.dir, argv: ['sh', '-c', script] });
    await waitForText(sb, w.paneId, 'row 100');
    expect(await sb.ops.capturePane(w.paneId, { history: true })).toContain('row 1\n');
    await sb.ops.clearHistory(w.paneId);
    const after = await sb.ops.capturePane(w.paneId, { history: true });
    expect(after).not.toContain('row 1\n');
    expect(after).toContain('row 100');
  });
});

describe('paneWithText', () => {
  it('reads a dead pane’s record and its whole text in one call, a live one too, and null for a pane that is gone', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    // The text holds the symbol a record's separator starts with, and a blank line.
    // It exits only once tmux has read its text (tmux drops what it had not read at the exit).
    const script = `printf 'first\\n\u241e middle\\n\\nclaude --resume x\\n'; read line; exit 5`;
    const dead = await sb.ops.newWindow({ session, name: 't', cwd: sb.dir, argv: ['sh', '-c', script], windowOptions: KEEP });
    await waitForText(sb, dead.paneId, 'claude --resume x');
    await sb.tmux('send-keys', '-t', dead.paneId, 'Enter');
    await waitForDeath(sb, session, dead.paneId);
    const read = await paneWithText(sb.runner, dead.paneId);
    expect(read?.record).toMatchObject({ paneId: dead.paneId, windowId: dead.windowId, paneDead: true, paneDeadStatus: 5 });
    expect(read?.text.split('\n').slice(0, 4)).toEqual(['first', '\u241e middle', '', 'claude --resume x']);
    expect(read?.text).toMatch(/Pane is dead/);

    const live = await sb.ops.newWindow({ session, name: 'l', cwd: sb.dir, argv: ['sh', '-c', 'echo ready; exec sleep 1000'] });
    await waitForText(sb, live.paneId, 'ready');
    const alive = await paneWithText(sb.runner, live.paneId);
    expect(alive?.record).toMatchObject({ paneId: live.paneId, paneDead: false, paneExited: false });
    expect(alive?.record.panePid).toBeGreaterThan(1);
    expect(alive?.text).toBe('ready');

    await sb.ops.killWindow(dead.windowId);
    expect(await paneWithText(sb.runner, dead.paneId)).toBeNull();
  });
});
