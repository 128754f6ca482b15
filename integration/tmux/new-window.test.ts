// newWindow / respawnPane against a real private tmux server.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paneRecord, paneText, waitForDeath, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

const TASK_OPTIONS = {
  'remain-on-exit': 'on',
  'automatic-rename': 'off',
  '@fleetcom-task': '7',
  '@fleetcom-run': '0',
  '@fleetcom-socket': '/run/x/default.sock',
};

// A shell creates a file before it writes it: wait for a whole line, not for the file.
const readWhenPresent = (path: string) =>
  waitFor(() => readFile(path, 'utf8').then((t) => (t.endsWith('\n') ? t : undefined), () => undefined), { what: `file ${path}` });

describe('newWindow', () => {
  it('has the window options in place before a command that exits at once (false) ends', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    // Several rounds: the option must never lose the race against the exiting command.
    for (let i = 0; i < 5; i++) {
      const w = await sb.ops.newWindow({
        session, name: `fast ${i}`, cwd: sb.dir, argv: ['false'], windowOptions: { ...TASK_OPTIONS, '@fleetcom-task': String(i) },
      });
      const dead = await waitForDeath(sb, session, w.paneId);
      expect(dead).toMatchObject({ windowId: w.windowId, paneDead: true, paneDeadStatus: 1, fleetcomTask: i, fleetcomRun: 0 });
      expect(dead.fleetcomSocket).toBe('/run/x/default.sock');
      const shown = await sb.tmux('show-options', '-w', '-t', w.windowId, '-v', 'automatic-rename');
      expect(shown).toBe('off');
      expect(await sb.tmux('display-message', '-p', '-t', w.windowId, '#{window_name}')).toBe(`fast ${i}`);
    }
  });

  it('returns ids of the new window and pane and puts it after the last window, not current', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    // Ids, not names: the first window's automatic name is whatever runs in it at that moment
    // (briefly `tmux` itself, before the shell is exec'd).
    const first = await sb.tmux('display-message', '-p', '-t', session, '#{window_id}');
    const a = await sb.ops.newWindow({ session, name: 'a', cwd: sb.dir, argv: ['sleep', '100'] });
    await sb.tmux('kill-window', '-t', a.windowId);
    const b = await sb.ops.newWindow({ session, name: 'b', cwd: sb.dir, argv: ['sleep', '100'] });
    expect(b.windowId).toMatch(/^@\d+$/);
    expect(b.paneId).toMatch(/^%\d+$/);
    expect(b.panePid).toBeGreaterThan(1);
    const rows = await sb.ops.listPanes(session);
    expect(rows.map((r) => r.windowId)).toEqual([first, b.windowId]);
    expect(rows[1]?.windowName).toBe('b');
    expect(await sb.tmux('display-message', '-p', '-t', session, '#{window_id}')).toBe(first);
  });

  it('stores names and start directories with # and #[ exactly', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const odd = await sb.mkdir('dir #1 ##{pane_id} #[x] ##[y]');
    const name = 'a#b ##c #{pane_id} #[fg=red]x';
    const w = await sb.ops.newWindow({
      session, name, cwd: odd, windowOptions: { 'remain-on-exit': 'on' }, argv: ['sh', '-c', `pwd > ${join(sb.dir, 'pwd')}`],
    });
    expect((await readWhenPresent(join(sb.dir, 'pwd'))).trim()).toBe(odd);
    expect((await paneRecord(sb, session, w.paneId))?.windowName).toBe(name);
    await sb.ops.renameWindow(w.windowId, `${name}!`);
    expect(await sb.ops.displayMessage(w.windowId, '#{window_name}')).toBe(`${name}!`);
  });

  it('gives the process the PATH of the tmux call, not -e PATH, and passes other -e pairs', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const out = join(sb.dir, 'env');
    await sb.ops.newWindow({
      session, name: 'env', cwd: sb.dir, path: `/opt/caller/bin:${sb.env.PATH}`,
      env: { PATH: '/ignored', ONLY_CALLER: 'x y#{z}', TRAILING: 'ends with;' },
      argv: ['sh', '-c', `printf '%s|%s|%s\\n' "$PATH" "$ONLY_CALLER" "$TRAILING" > ${out}`],
    });
    expect((await readWhenPresent(out)).trim()).toBe(`/opt/caller/bin:${sb.env.PATH}|x y#{z}|ends with;`);
  });

  it('passes arguments ending in ; or being ; to the command unchanged', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const out = join(sb.dir, 'args');
    await sb.ops.newWindow({
      session, name: 'args', cwd: sb.dir,
      argv: ['sh', '-c', `printf '%s\\n' "$@" > ${out};`, 'sh', ';', 'a;', 'b\\;', 'c'],
    });
    expect(await readWhenPresent(out)).toBe(';\na;\nb\\;\nc\n');
  });
});

describe('respawnPane', () => {
  it('reruns a dead pane in place with new argv, PATH and env, keeping window options; clearHistory drops the old text', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const w = await sb.ops.newWindow({
      session, name: 'r', cwd: sb.dir, windowOptions: TASK_OPTIONS,
      // `sleep 1`: tmux drops output it has not read when the process exits (see panes.test.ts).
      argv: ['sh', '-c', 'i=0; while [ $i -lt 100 ]; do echo old-run-line-$i; i=$((i+1)); done; echo OLD-HINT; sleep 1; exit 3'],
    });
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(3);
    expect(await paneText(sb, w.paneId)).toContain('old-run-line-0');

    const out = join(sb.dir, 'second');
    await sb.ops.respawnPane({
      paneId: w.paneId, cwd: sb.dir, path: `/second/bin:${sb.env.PATH}`, env: { RUN: '1' }, clearHistory: true,
      argv: ['sh', '-c', `echo "$PATH $RUN" > ${out}; echo NEW-RUN; sleep 1; exit 0`],
    });
    const dead = await waitForDeath(sb, session, w.paneId);
    expect(dead).toMatchObject({ paneDeadStatus: 0, windowId: w.windowId, fleetcomTask: 7 });
    expect((await readFile(out, 'utf8')).trim()).toBe(`/second/bin:${sb.env.PATH} 1`);
    const text = await paneText(sb, w.paneId);
    expect(text).toContain('NEW-RUN');
    expect(text).not.toContain('OLD-HINT');
    expect(text).not.toContain('old-run-line');
  });

  it('kills a live process first (-k)', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const w = await sb.ops.newWindow({ session, name: 'live', cwd: sb.dir, argv: ['sh', '-c', 'echo FIRST; exec sleep 1000'] });
    await waitForText(sb, w.paneId, 'FIRST');
    const started = await sb.ops.respawnPane({ paneId: w.paneId, cwd: sb.dir, argv: ['sh', '-c', 'echo SECOND; exec sleep 1000'] });
    await waitForText(sb, w.paneId, 'SECOND');
    const r = await paneRecord(sb, session, w.paneId);
    expect(r?.panePid).not.toBe(w.panePid);
    // The new process's pid and terminal come back from the respawn's own tmux call.
    expect(started).toEqual({ panePid: r?.panePid, paneTty: r?.paneTty });
  });
});
