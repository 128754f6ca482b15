// The fake grok in a real tmux pane, driven with send-keys: session dir at the first message,
// the hint after a message, --resume / -r.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paneText, pressKeys, spawnInPane, typeLine, waitForDeath, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { exists, filesUnder } from './support.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const READY = 'grok>';
const enc = (cwd: string) => cwd.replaceAll('%', '%25').replaceAll('/', '%2F');

async function setup() {
  const sb = await useSandbox();
  const session = await sb.startServer();
  const work = await sb.mkdir('100%', 'a.b');
  const home = sb.env.GROK_HOME ?? '';
  return { sb, session, work, home, dir: (id: string) => join(home, 'sessions', enc(work), id) };
}

describe('fake grok', () => {
  it('creates <home>/sessions/<enc cwd>/<id>/ at the first message and prints the hint on exit', async () => {
    const { sb, session, work, dir } = await setup();
    const w = await spawnInPane(sb, session, `grok --session-id ${ID}`, { cwd: work });
    await waitForText(sb, w.paneId, READY);
    expect(await exists(dir(ID))).toBe(false);
    await typeLine(sb, w.paneId, 'hello');
    await waitForText(sb, w.paneId, 'fake reply to: hello');
    expect(await exists(dir(ID))).toBe(true);
    expect(enc(work)).toContain('%2F100%25%2Fa.b');
    await typeLine(sb, w.paneId, '/exit');
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(0);
    expect(await paneText(sb, w.paneId)).toContain(`Resume this session with:\n  grok --resume ${ID}`);
  });

  it('with no message prints no hint and creates nothing', async () => {
    const { sb, session, work, home } = await setup();
    const w = await spawnInPane(sb, session, `grok --session-id ${ID}`, { cwd: work });
    await waitForText(sb, w.paneId, READY);
    await pressKeys(sb, w.paneId, 'C-c');
    await waitForDeath(sb, session, w.paneId);
    expect(await paneText(sb, w.paneId)).not.toContain('grok --resume');
    expect(await filesUnder(home)).toEqual([]);
  });

  it.each(['--resume', '-r'])('%s <id> continues an existing session', async (flag) => {
    const { sb, session, work } = await setup();
    const w = await spawnInPane(sb, session, `grok --session-id ${ID}`, { cwd: work });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'one');
    await waitForText(sb, w.paneId, 'fake reply to: one');
    await typeLine(sb, w.paneId, '/exit');
    await waitForDeath(sb, session, w.paneId);

    const r = await spawnInPane(sb, session, `grok ${flag} ${ID}`, { cwd: work });
    await waitForText(sb, r.paneId, READY);
    await typeLine(sb, r.paneId, '/exit');
    expect((await waitForDeath(sb, session, r.paneId)).paneDeadStatus).toBe(0);
    expect(await paneText(sb, r.paneId)).toContain(`grok --resume ${ID}`);
  });

  it('--resume of an unknown session fails with rc 1', async () => {
    const { sb, session, work } = await setup();
    const r = await spawnInPane(sb, session, `grok --resume ${ID}`, { cwd: work });
    expect((await waitForDeath(sb, session, r.paneId)).paneDeadStatus).toBe(1);
    expect(await paneText(sb, r.paneId)).toContain(`no session found with id ${ID}`);
  });

  it('starts with a fresh id when none is given', async () => {
    const { sb, session, work, home } = await setup();
    const w = await spawnInPane(sb, session, 'grok', { cwd: work });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, 'x');
    await waitForText(sb, w.paneId, 'fake reply to: x');
    await typeLine(sb, w.paneId, '/exit');
    await waitForDeath(sb, session, w.paneId);
    const id = /grok --resume ([0-9a-f-]{36})/.exec(await paneText(sb, w.paneId))?.[1];
    expect(await filesUnder(home)).toEqual([`sessions/${enc(work)}/${id}/messages.jsonl`]);
  });
});
