// The fake claude in a real tmux pane, driven with send-keys: it must behave like claude 2.1.197
// as real-clients.md describes (hook at start, transcript at the first message, hint only after
// a message, resume failures).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paneText, pressKeys, spawnInPane, typeLine, waitForDeath, waitForText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { UUID, claudeSlug, exists, filesUnder, jsonLines } from './support.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const READY = '? for shortcuts';
const SETTINGS = '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"cat > \\"$FLEETCOM_CAPTURE_FILE\\""}]}]}}';

async function setup() {
  const sb = await useSandbox();
  const session = await sb.startServer();
  const settings = join(sb.dir, 'claude-settings.json');
  await writeFile(settings, SETTINGS);
  const capture = join(sb.dir, 'capture.json');
  const work = await sb.mkdir('work dir', 'my_proj.v2');
  const home = sb.env.CLAUDE_CONFIG_DIR ?? '';
  const transcript = (id: string) => join(home, 'projects', claudeSlug(work), `${id}.jsonl`);
  return { sb, session, settings, capture, work, home, transcript };
}

const readCapture = (path: string) =>
  waitFor(async () => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>, { what: `capture file ${path}` });

async function start(sb: Sandbox, session: string, command: string, cwd: string, capture?: string) {
  const w = await spawnInPane(sb, session, command, { cwd, env: capture ? { FLEETCOM_CAPTURE_FILE: capture } : {} });
  return w;
}

describe('fake claude', () => {
  it('runs the SessionStart hook at startup, before any message, and writes sessions/<pid>.json', async () => {
    const { sb, session, settings, capture, work, home, transcript } = await setup();
    const w = await start(sb, session, `claude --session-id ${ID} --settings '${settings}'`, work, capture);
    await waitForText(sb, w.paneId, READY);
    expect(await readCapture(capture)).toEqual({
      session_id: ID, transcript_path: transcript(ID), cwd: work, hook_event_name: 'SessionStart', source: 'startup', model: 'fake',
    });
    expect(await exists(transcript(ID))).toBe(false);
    const [started] = await sb.agentStarts();
    expect(started).toMatchObject({
      agent: 'claude', argv: ['--session-id', ID, '--settings', settings], cwd: work,
      env: { FLEETCOM_CAPTURE_FILE: capture, FLEETCOM_NOTIFY_CHAIN: null },
    });
    const pidFile = JSON.parse(await readFile(join(home, 'sessions', `${started?.pid}.json`), 'utf8')) as Record<string, unknown>;
    expect(pidFile).toMatchObject({ pid: started?.pid, sessionId: ID, cwd: work });
  });

  it('creates the transcript at the first message and prints the hint on /exit', async () => {
    const { sb, session, settings, capture, work, transcript } = await setup();
    const w = await start(sb, session, `claude --session-id ${ID} --settings '${settings}'`, work, capture);
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'hello there');
    await waitForText(sb, w.paneId, 'fake reply to: hello there');
    const records = await jsonLines(transcript(ID));
    expect(records.map((r) => r.type)).toEqual(['mode', 'permission-mode', 'user', 'assistant']);
    expect(records[2]).toMatchObject({ sessionId: ID, message: { role: 'user', content: 'hello there' } });
    await typeLine(sb, w.paneId, '/exit');
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(0);
    const text = await paneText(sb, w.paneId);
    expect(text).toContain(`Resume this session with:\nclaude --resume ${ID}\n`);
  });

  it('/exit with no message prints no hint and leaves a transcript of two bookkeeping records', async () => {
    const { sb, session, work, transcript } = await setup();
    const w = await start(sb, session, `claude --session-id ${ID}`, work);
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, '/exit');
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(0);
    expect(await paneText(sb, w.paneId)).not.toContain('claude --resume');
    expect((await jsonLines(transcript(ID))).map((r) => r.type)).toEqual(['mode', 'permission-mode']);
  });

  it('exits on the second Ctrl-C, not the first', async () => {
    const { sb, session, work } = await setup();
    const w = await start(sb, session, 'claude', work);
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'one');
    await waitForText(sb, w.paneId, 'fake reply to: one');
    await pressKeys(sb, w.paneId, 'C-c');
    await waitForText(sb, w.paneId, 'Press Ctrl-C again to exit');
    expect((await sb.ops.listPanes(session)).find((p) => p.paneId === w.paneId)?.paneDead).toBe(false);
    await pressKeys(sb, w.paneId, 'C-c');
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(0);
    const hint = /claude --resume ([0-9a-f-]{36})\n/.exec(await paneText(sb, w.paneId));
    expect(hint?.[1]).toMatch(UUID);
  });

  it('resumes a conversation that has a user record: same id, hook source "resume"', async () => {
    const { sb, session, settings, capture, work, transcript } = await setup();
    const first = await start(sb, session, `claude --session-id ${ID}`, work);
    await waitForText(sb, first.paneId, READY);
    await typeLine(sb, first.paneId, 'remember this');
    await waitForText(sb, first.paneId, 'fake reply to: remember this');
    await typeLine(sb, first.paneId, '/exit');
    await waitForDeath(sb, session, first.paneId);

    const w = await start(sb, session, `claude --resume ${ID} --settings '${settings}'`, work, capture);
    await waitForText(sb, w.paneId, READY);
    expect(await readCapture(capture)).toMatchObject({ session_id: ID, source: 'resume' });
    await typeLine(sb, w.paneId, '/exit');
    await waitForDeath(sb, session, w.paneId);
    expect(await paneText(sb, w.paneId)).toContain(`claude --resume ${ID}`);
    expect((await jsonLines(transcript(ID))).filter((r) => r.type === 'user')).toHaveLength(1);
  });

  it.each([
    ['an empty conversation (only bookkeeping records)', true],
    ['a conversation with no transcript', false],
  ])('--resume of %s fails with rc 1 and still prints a hint', async (_title, makeEmpty) => {
    const { sb, session, work } = await setup();
    if (makeEmpty) {
      const w0 = await start(sb, session, `claude --session-id ${ID}`, work);
      await waitForText(sb, w0.paneId, READY);
      await typeLine(sb, w0.paneId, '/exit');
      await waitForDeath(sb, session, w0.paneId);
    }
    const w = await start(sb, session, `claude --resume ${ID}`, work);
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(1);
    const text = await paneText(sb, w.paneId);
    expect(text).toContain(`No conversation found with session ID: ${ID}`);
    expect(text).toContain(`claude --resume ${ID}`);
  });

  it.each([
    ['an invalid id', 'not-a-uuid', 'Error: Invalid session ID. Must be a valid UUID.'],
    ['an id already in use', ID, `Error: Session ID ${ID} is already in use.`],
  ])('--session-id with %s fails with rc 1', async (_title, id, message) => {
    const { sb, session, work, transcript } = await setup();
    if (id === ID) {
      const w0 = await start(sb, session, `claude --session-id ${ID}`, work);
      await waitForText(sb, w0.paneId, READY);
      await typeLine(sb, w0.paneId, '/exit');
      await waitForDeath(sb, session, w0.paneId);
      expect(await exists(transcript(ID))).toBe(true);
    }
    const w = await start(sb, session, `claude --session-id ${id}`, work);
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(1);
    expect(await paneText(sb, w.paneId)).toContain(message);
  });

  it('/clear starts a new conversation and fires SessionStart with source "clear"', async () => {
    const { sb, session, settings, capture, work, home } = await setup();
    const w = await start(sb, session, `claude --session-id ${ID} --settings '${settings}'`, work, capture);
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'first');
    await waitForText(sb, w.paneId, 'fake reply to: first');
    await typeLine(sb, w.paneId, '/clear');
    const cleared = await waitFor(async () => {
      const c = await readCapture(capture);
      return c.source === 'clear' ? c : false;
    }, { what: 'the clear hook payload' });
    const newId = String(cleared.session_id);
    expect(newId).toMatch(UUID);
    expect(newId).not.toBe(ID);
    await typeLine(sb, w.paneId, 'second');
    await waitForText(sb, w.paneId, 'fake reply to: second');
    await typeLine(sb, w.paneId, '/exit');
    await waitForDeath(sb, session, w.paneId);
    const text = await paneText(sb, w.paneId);
    expect(text).toContain(`claude --resume ${newId}`);
    expect(text).not.toContain(`claude --resume ${ID}`);
    expect(await filesUnder(join(home, 'projects'))).toEqual(
      [`${claudeSlug(work)}/${ID}.jsonl`, `${claudeSlug(work)}/${newId}.jsonl`].sort(),
    );
  });

  it('ignores SIGTERM with FAKE_AGENT_IGNORE_TERM=1 (for kill escalation) and dies by SIGKILL', async () => {
    const { sb, session, work } = await setup();
    const w = await spawnInPane(sb, session, 'exec claude', { cwd: work, env: { FAKE_AGENT_IGNORE_TERM: '1' } });
    await waitForText(sb, w.paneId, READY);
    const [started] = await sb.agentStarts();
    process.kill(started?.pid ?? 0, 'SIGTERM');
    await waitForText(sb, w.paneId, '(ignoring SIGTERM)');
    expect((await sb.ops.listPanes(session)).find((p) => p.paneId === w.paneId)?.paneDead).toBe(false);
    process.kill(started?.pid ?? 0, 'SIGKILL');
    expect(await waitForDeath(sb, session, w.paneId)).toMatchObject({ paneDeadStatus: null, paneDeadSignal: 9 });
  });

  it('under an inherited CLAUDE_CODE_CHILD_SESSION writes no transcript, no sessions entry and no hint', async () => {
    const { sb, session, settings, work, home, transcript } = await setup();
    const w = await spawnInPane(sb, session, `claude --session-id ${ID} --settings '${settings}'`, { cwd: work, env: { CLAUDE_CODE_CHILD_SESSION: '1' } });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'hello there');
    await waitForText(sb, w.paneId, 'fake reply to: hello there');
    await typeLine(sb, w.paneId, '/exit');
    await waitForDeath(sb, session, w.paneId);
    expect(await exists(transcript(ID))).toBe(false);
    expect(await filesUnder(join(home, 'sessions'))).toEqual([]);
    expect(await paneText(sb, w.paneId)).not.toContain('--resume');
  });
});
