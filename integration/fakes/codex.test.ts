// The fake codex in a real tmux pane, driven with send-keys: it must behave like codex 0.171.0
// as real-clients.md describes (rollout at the first message, notify per turn plus the
// title-generation thread, exit texts, resume).
import { readdirSync, readlinkSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paneText, pressKeys, spawnInPane, typeLine, waitForDeath, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { UUID, filesUnder, jsonLines, waitForLines } from './support.js';

const READY = '\u203a';

async function setup() {
  const sb = await useSandbox();
  const session = await sb.startServer();
  const notes = join(sb.dir, 'notes.jsonl');
  const notifier = join(sb.dir, 'notify me.sh');
  await writeFile(notifier, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${notes}'\n`, { mode: 0o755 });
  const home = sb.env.CODEX_HOME ?? '';
  const work = await sb.mkdir('work');
  const override = `'notify=["${notifier}"]'`;
  return { sb, session, notes, notifier, home, work, override };
}

const rolloutName = /^(\d{4})\/(\d{2})\/(\d{2})\/rollout-\1-\2-\3T\d{2}-\d{2}-\d{2}-([0-9a-f-]{36})\.jsonl$/;

describe('fake codex', () => {
  it('creates the rollout at the first message, notifies per turn plus a title thread, and prints the resume text', async () => {
    const { sb, session, notes, notifier, home, work, override } = await setup();
    const before = Date.now();
    const w = await spawnInPane(sb, session, `codex -c ${override}`, { cwd: work, env: { FLEETCOM_NOTIFY_CHAIN: 'x' } });
    await waitForText(sb, w.paneId, READY);
    expect(await filesUnder(join(home, 'sessions'))).toEqual([]);
    const [started] = await sb.agentStarts();
    expect(started).toMatchObject({ agent: 'codex', argv: ['-c', `notify=["${notifier}"]`], env: { FLEETCOM_NOTIFY_CHAIN: 'x' } });

    await typeLine(sb, w.paneId, 'hello');
    await waitForText(sb, w.paneId, 'fake reply to: hello');
    const [main, title] = await waitForLines(notes, 2);
    expect(main).toMatchObject({
      type: 'agent-turn-complete', cwd: work, client: 'codex-tui', 'input-messages': ['hello'],
      'last-assistant-message': 'fake reply to: hello',
    });
    const id = String(main?.['thread-id']);
    expect(id).toMatch(UUID);
    expect(id[14]).toBe('7');
    const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(ms).toBeGreaterThanOrEqual(before - 1000);
    expect(ms).toBeLessThanOrEqual(Date.now());
    expect(String(title?.['thread-id'])).not.toBe(id);
    expect(String(title?.['thread-id'])[14]).toBe('7');
    expect(String((title?.['input-messages'] as string[])[0])).toMatch(/^Generate a concise, single-line task title/);

    const files = await filesUnder(join(home, 'sessions'));
    expect(files).toHaveLength(1);
    const m = rolloutName.exec(files[0] ?? '');
    expect(m?.[4]).toBe(id);
    const [meta] = await jsonLines(join(home, 'sessions', files[0] ?? ''));
    expect(meta).toMatchObject({ type: 'session_meta', payload: { id, session_id: id, cwd: work, thread_source: 'user' } });

    await typeLine(sb, w.paneId, 'again');
    await waitForText(sb, w.paneId, 'fake reply to: again');
    const third = (await waitForLines(notes, 3))[2];
    expect(third).toMatchObject({ 'thread-id': id, 'input-messages': ['hello', 'again'] });

    await pressKeys(sb, w.paneId, 'C-c');
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(0);
    expect(await paneText(sb, w.paneId)).toContain(
      `Token usage: total=15 input=10 output=5\nTo continue this session, run:\n  codex resume ${id}\nOr run codex resume and select hello.`,
    );
    expect(await jsonLines(notes)).toHaveLength(3);
  });

  it('FAKE_CODEX_TITLE_ORDER=before sends the title notify first', async () => {
    const { sb, session, notes, work, override } = await setup();
    const w = await spawnInPane(sb, session, `codex -c ${override}`, { cwd: work, env: { FAKE_CODEX_TITLE_ORDER: 'before' } });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'hello');
    const [first, second] = await waitForLines(notes, 2);
    expect(String((first?.['input-messages'] as string[])[0])).toMatch(/^Generate a concise/);
    expect(second?.['input-messages']).toEqual(['hello']);
  });

  it('reads notify from $CODEX_HOME/config.toml when no -c override is given', async () => {
    const { sb, session, notes, notifier, home, work } = await setup();
    await sb.mkdir('home', '.codex');
    await writeFile(join(home, 'config.toml'), `model = "x"\nnotify = ["${notifier}"] # mine\n`);
    const w = await spawnInPane(sb, session, 'codex', { cwd: work });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'hi');
    expect((await waitForLines(notes, 2))[0]).toMatchObject({ 'input-messages': ['hi'] });
  });

  it('with no message prints only `Session ID: <id>`, writes no rollout, and that id cannot be resumed', async () => {
    const { sb, session, home, work, override, notes } = await setup();
    const w = await spawnInPane(sb, session, `codex -c ${override}`, { cwd: work });
    await waitForText(sb, w.paneId, READY);
    await pressKeys(sb, w.paneId, 'C-c');
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(0);
    const text = await paneText(sb, w.paneId);
    const id = /Session ID: ([0-9a-f-]{36})/.exec(text)?.[1] ?? '';
    expect(id).toMatch(UUID);
    expect(text).not.toContain('codex resume');
    expect(await filesUnder(join(home, 'sessions'))).toEqual([]);
    expect(await jsonLines(notes)).toEqual([]);

    const r = await spawnInPane(sb, session, `codex resume ${id}`, { cwd: work });
    expect((await waitForDeath(sb, session, r.paneId)).paneDeadStatus).toBe(1);
    expect(await paneText(sb, r.paneId)).toContain(`ERROR: No saved session found with ID ${id}`);
  });

  it('resume <id> keeps the thread id and accumulates input messages; no second title thread', async () => {
    const { sb, session, notes, work, override } = await setup();
    const w = await spawnInPane(sb, session, `codex -c ${override}`, { cwd: work });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'first');
    const id = String((await waitForLines(notes, 2))[0]?.['thread-id']);
    await typeLine(sb, w.paneId, '/exit');
    await waitForDeath(sb, session, w.paneId);

    const r = await spawnInPane(sb, session, `codex resume ${id} -c ${override}`, { cwd: work });
    await waitForText(sb, r.paneId, READY);
    await typeLine(sb, r.paneId, 'second');
    const lines = await waitForLines(notes, 3);
    expect(lines[2]).toMatchObject({ 'thread-id': id, 'input-messages': ['first', 'second'] });
    await pressKeys(sb, r.paneId, 'C-c');
    await waitForDeath(sb, session, r.paneId);
    expect(await paneText(sb, r.paneId)).toContain(`  codex resume ${id}\nOr run codex resume and select first.`);
    expect(await jsonLines(notes)).toHaveLength(3);
    expect(await readFile(notes, 'utf8')).not.toContain('"input-messages":["Generate a concise, single-line task title for this request: second"]');
  });

  it('runs a subagent thread for a message naming `delegate`, like 0.171.0: its rollout beside the user\'s, held open, notified after it', async () => {
    const { sb, session, notes, home, work, override } = await setup();
    const w = await spawnInPane(sb, session, `codex -c ${override}`, { cwd: work });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'please delegate this');
    await waitForText(sb, w.paneId, 'fake reply to: please delegate this');
    const [main, title, child] = await waitForLines(notes, 3);
    const parent = String(main?.['thread-id']);
    expect(main).toMatchObject({ client: 'codex-tui', 'input-messages': ['please delegate this'] });
    expect(String((title?.['input-messages'] as string[])[0])).toMatch(/^Generate a concise/);
    const id = String(child?.['thread-id']);
    expect(id).toMatch(UUID);
    expect(id).not.toBe(parent);
    expect(child).toMatchObject({ type: 'agent-turn-complete', cwd: work, 'input-messages': ['fake subtask of: please delegate this'] });
    expect(child).not.toHaveProperty('client');

    const files = await filesUnder(join(home, 'sessions'));
    expect(files.map((f) => rolloutName.exec(f)?.[4]).sort()).toEqual([parent, id].sort());
    const heads = await Promise.all(files.map(async (f) => (await jsonLines(join(home, 'sessions', f)))[0]));
    const head = heads.find((h) => (h?.payload as { id?: string }).id === id);
    expect(head).toMatchObject({
      type: 'session_meta',
      payload: {
        id, session_id: parent, parent_thread_id: parent, cwd: work, thread_source: 'subagent',
        source: { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, agent_path: null } } },
      },
    });
    expect(heads.find((h) => (h?.payload as { id?: string }).id === parent)).toMatchObject({ payload: { thread_source: 'user', source: 'cli' } });
    const [started] = await sb.agentStarts();
    const open = readdirSync(`/proc/${started?.pid}/fd`).map((fd) => { try { return readlinkSync(`/proc/${started?.pid}/fd/${fd}`); } catch { return ''; } });
    expect(open.filter((f) => f.includes('/rollout-')).map((f) => f.slice(-42, -6)).sort()).toEqual([parent, id].sort());

    await pressKeys(sb, w.paneId, 'C-c');
    await waitForDeath(sb, session, w.paneId);
    expect(await paneText(sb, w.paneId)).toContain(`  codex resume ${parent}\n`);
  });
});
