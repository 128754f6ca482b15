// fleetcom web against a real fleet on a private tmux server: a task's terminal over the
// WebSocket both ways, the desktop's window left at its size, refusals, a dead socket reaped.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { cliPath } from '../helpers/cli.js';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { opened, receive, startWeb } from '../helpers/web.js';

describe('fleetcom web: a task terminal', () => {
  it('types echo MARK into a shell task through the socket and reads MARK back', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sh');
    const web = await startWeb(sb);
    const ws = web.socket(id);
    const got = receive(ws);
    expect(await opened(ws)).toBe('open');
    await waitFor(() => got.controls.some((c) => c.type === 'size'), { what: 'the pane size' });
    const hello = got.controls.find((c) => c.type === 'hello');
    expect(hello).toMatchObject({ readOnly: false, task: { id: Number(id) } });
    expect(['stream', 'poll']).toContain(hello?.transport);
    ws.send(Buffer.from('echo MARK-$((40+2))\r'));
    // The typed line shows `MARK-$((40+2))`; only the shell's output is `MARK-42` on a row of its own.
    await waitFor(() => got.rows().some((row) => row.trim() === 'MARK-42'), { what: 'MARK-42 on the page\'s screen', timeout: 20_000 }).catch((e: Error) => {
      throw new Error(`${e.message}\n${got.rows().join('\n')}`);
    });
    ws.close();
  });

  it('leaves the desktop client\'s window size as it was when a viewer attaches', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sh');
    const task = await fleet.task(id);
    // A desktop terminal of 120x40 attached to the task's window (a real tmux client on a pty).
    const desktop = spawn('script', ['-qfc', `stty cols 120 rows 40; exec tmux -S ${sb.socket} attach -t ${task.windowId}`, '/dev/null'], { env: sb.env, stdio: ['pipe', 'ignore', 'ignore'] });
    try {
      const size = () => sb.tmux('display-message', '-p', '-t', task.paneId, '#{window_width}x#{window_height}');
      // People's clients only: the supervisor's own control-mode client has no size of its own.
      const clients = async () => (await sb.tmux('list-clients', '-F', '#{client_control_mode} #{client_width}x#{client_height}')).split('\n').filter((l) => l.startsWith('0 ')).map((l) => l.slice(2)).join('\n');
      await waitFor(async () => (await clients()).trim() === '120x40' && (await size()).trim() === '120x39', { what: 'the desktop client at 120x40', timeout: 20_000 });
      const web = await startWeb(sb);
      const ws = web.socket(id);
      const got = receive(ws);
      expect(await opened(ws)).toBe('open');
      await waitFor(() => got.controls.find((c) => c.type === 'size'), { what: 'the size the viewer is told' });
      expect(got.controls.find((c) => c.type === 'size')).toMatchObject({ cols: 120, rows: 39 });
      await waitFor(() => got.rows().some((row) => row.trim() !== ''), { what: 'a first screen' });
      expect((await size()).trim()).toBe('120x39');
      expect((await clients()).trim()).toBe('120x40');
      ws.close();
    } finally {
      desktop.kill('SIGTERM');
    }
  });

  it('closes a socket that stops answering pings, and counts it no longer', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sh');
    const web = await startWeb(sb, ['--ping-ms', '300']);
    const live = web.socket(id);
    const dead = web.socket(id, { autoPong: false });
    expect(await opened(live)).toBe('open');
    expect(await opened(dead)).toBe('open');
    const closed = new Promise<number>((resolve) => dead.once('close', (code) => resolve(code)));
    expect(await closed).toBe(1006);
    // The live one, which answers, is kept.
    expect(live.readyState).toBe(WebSocket.OPEN);
    await waitFor(async () => ((await (await web.fetch('/api/status')).json()) as { viewers: number }).viewers === 1, { what: 'one viewer left' });
    expect(web.log()).toMatch(/no answer to a ping/);
    live.close();
  });
});

describe('fleetcom web: refusals', () => {
  it('refuses a rebinding Host, a foreign Origin, a query-string token and no token, each with the same 403', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sh');
    const web = await startWeb(sb);
    const ok = await web.fetch('/api/tasks');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Array<{ id: number }>).map((t) => t.id)).toContain(Number(id));

    const json = { 'Content-Type': 'application/json' };
    const refusals = [
      await web.request('/api/tasks', { headers: { Host: `evil.example:${web.port}` } }),
      await web.request('/api/tasks', { headers: { Host: '' } }),
      await web.request('/api/tasks', { headers: { Origin: 'http://evil.example' } }),
      await web.request(`/api/tasks?token=${web.token}`, { auth: false }),
      await web.request('/api/tasks', { auth: false }),
      await web.request('/api/tasks', { headers: { Authorization: 'Bearer not-the-token' } }),
      await web.request(`/api/tasks/${id}/send`, { method: 'POST', headers: { Origin: 'http://evil.example', ...json }, body: '{"text":"x"}' }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.text).toBe('forbidden\n');
    }
    // The page itself is public (the token comes in its fragment), but not to a rebound name.
    expect((await web.request('/', { auth: false })).status).toBe(200);
    expect((await web.request('/', { auth: false, headers: { Host: `evil.example:${web.port}` } })).status).toBe(403);

    // Upgrades: refused before the handshake completes.
    expect(await opened(web.socket(id, { headers: { Host: `evil.example:${web.port}` } }))).toBe(403);
    expect(await opened(web.socket(id, { headers: { Origin: 'http://evil.example' } }))).toBe(403);
    expect(await opened(web.socket(id, { auth: false, path: `/api/tasks/${id}/terminal?token=${web.token}` }))).toBe(403);
    expect(await opened(web.socket(id, { auth: false }))).toBe(403);
    // The cookie from the exchange opens a socket only with the page's Origin.
    const exchange = await web.request('/api/session', { method: 'POST', headers: { Origin: web.origin } });
    expect(exchange.status).toBe(204);
    const cookie = String(exchange.headers['set-cookie'] ?? '');
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    const jar = cookie.split(';')[0]!;
    expect(await opened(web.socket(id, { auth: false, headers: { Cookie: jar } }))).toBe('open');
    expect(await opened(web.socket(id, { auth: false, headers: { Cookie: jar, Origin: '' } }))).toBe(403);
    // A mutation on the cookie needs the page's Origin too; with it, it reaches the API.
    expect((await web.request(`/api/tasks/${id}/output`, { auth: false, headers: { Cookie: jar } })).status).not.toBe(403);
    expect((await web.request('/api/session', { method: 'DELETE', auth: false, headers: { Cookie: jar } })).status).toBe(403);
    expect((await web.request('/api/session', { method: 'DELETE', auth: false, headers: { Cookie: jar, Origin: web.origin } })).status).toBe(204);
  });
});

describe('fleetcom web: history and resume', () => {
  it('lists a task directory\'s past conversations as fleetcom history does, and resumes one as a new task', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('proj');
    const first = (await fleet.cli('run', '--cwd', dir, '--', 'claude')).stdout.trim();
    const ready = await fleet.waitTask(first, (t) => t.attention === 'waiting', 'claude at its prompt');
    await sb.tmux('send-keys', '-t', ready.paneId, '-l', 'hello history');
    await sb.tmux('send-keys', '-t', ready.paneId, 'Enter');
    const task = await fleet.waitTask(first, (t) => t.conversationId !== null && t.attention === 'waiting', 'the reply, and its conversation id');
    await sb.tmux('send-keys', '-t', task.paneId, '-l', '/exit');
    await sb.tmux('send-keys', '-t', task.paneId, 'Enter');
    await fleet.waitTask(first, (t) => t.state === 'exited', 'exited');
    const web = await startWeb(sb);

    const listed = await web.fetch(`/api/tasks/${first}/history`);
    expect(listed.status).toBe(200);
    const rows = (await listed.json()) as Array<{ agent: string; id: string; heldBy: unknown }>;
    const cli = JSON.parse((await fleet.cliIn(dir, sb.env, 'history', '--json')).stdout) as typeof rows;
    expect(rows).toEqual(cli);
    expect(rows.map((r) => r.id)).toContain(task.conversationId);

    const resumed = await web.fetch(`/api/history/${task.conversationId}/resume`, { method: 'POST', headers: { Origin: web.origin } });
    expect(resumed.status).toBe(200);
    const { task: id } = (await resumed.json()) as { task: number };
    const again = await fleet.task(id);
    expect(again.cwd).toBe(dir);
    expect(again.command).toBe(`claude --resume '${task.conversationId}'`);
  });
});

describe('fleetcom web: on a terminal', () => {
  it('prints the URL on stdout and, when stderr is a terminal, a QR code of it', async () => {
    const sb = await useSandbox();
    const shown = spawn('script', ['-qfc', `${process.execPath} ${cliPath} web --port 0 2>&1`, '/dev/null'], { env: sb.env, cwd: sb.dir, stdio: ['pipe', 'pipe', 'ignore'] });
    let text = '';
    shown.stdout.setEncoding('utf8').on('data', (c: string) => (text += c));
    try {
      await waitFor(() => /serving the page/.test(text), { what: 'fleetcom web to start on a terminal', timeout: 30_000 });
      expect(text).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}\r?$/m);
      // The QR code: rows of block characters, a quiet zone around them.
      expect(text.split('\n').filter((l) => /^[ █▀▄]{30,}\r?$/.test(l)).length).toBeGreaterThan(10);
    } finally {
      shown.kill('SIGTERM');
    }
  });
});

describe('fleetcom web: the fleet\'s verbs are the CLI\'s', () => {
  it('sends through the API with the verdict fleetcom send --json gives, reads the reply as fleetcom output does, streams events', async (ctx) => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    if (/unknown command/.test((await fleet.cli('send')).stderr)) ctx.skip('this fleetcom has no send command yet: the API answers 501 until it does');
    const id = await fleet.run('claude');
    await fleet.waitTask(id, (t) => t.attention === 'waiting', 'claude at its prompt');
    const web = await startWeb(sb);
    const events: unknown[] = [];
    const stream = await web.fetch('/api/events');
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let rest = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        rest += value;
        const lines = rest.split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line));
      }
    })();

    const api = await web.fetch(`/api/tasks/${id}/send`, { method: 'POST', headers: { Origin: web.origin, 'Content-Type': 'application/json' }, body: JSON.stringify({ text: 'hello from the api' }) });
    expect(api.status).toBe(200);
    const verdict = (await api.json()) as Record<string, unknown>;
    expect(verdict).toMatchObject({ task: Number(id), verdict: 'submitted' });
    await fleet.waitTask(id, (t) => t.attention === 'waiting', 'the reply');
    const cli = await fleet.cli('send', id, 'hello from the cli', '--json');
    expect(cli.exitCode).toBe(0);
    const byCli = JSON.parse(cli.stdout) as Record<string, unknown>;
    expect(Object.keys(verdict).sort()).toEqual(Object.keys(byCli).sort());
    expect(byCli).toMatchObject({ verdict: 'submitted', turn: (verdict.turn as number) + 1 });
    await fleet.waitTask(id, (t) => t.attention === 'waiting', 'the second reply');

    const output = await waitFor(async () => {
      const r = (await (await web.fetch(`/api/tasks/${id}/output`)).json()) as { turn: number; text: string | null };
      return r.turn === byCli.turn && r.text !== null ? r : false;
    }, { what: 'the second turn\'s reply' });
    expect(output.text).toBe('fake reply to: hello from the cli');
    expect(output).toEqual(JSON.parse((await fleet.cli('output', id, '--json')).stdout));
    await waitFor(() => events.length >= 2, { what: 'events on the stream' });
    expect(JSON.stringify(events)).toMatch(/working|waiting/);
    // Stopped with the event stream still open, it ends by itself rather than waiting for its client.
    await web.stop();
    expect([web.process.exitCode, web.process.signalCode]).toEqual([0, null]);
    await reader.cancel().catch(() => undefined);
  });
});
