// The fake gemini in a real tmux pane: the session file at the first message with gemini's own
// context record first, the hint on /quit even with no message, exit 42 for a used
// --session-id, --resume continuing the same file, subagent sessions a level down.
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paneText, spawnInPane, typeLine, waitForDeath, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { filesUnder, jsonLines } from './support.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const READY = 'Type your message';

describe('fake gemini', () => {
  it('writes its session file at the first message, prints the hint, refuses a used id with 42 and resumes it', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const work = await sb.mkdir('w', 'app');
    const home = sb.env.GEMINI_CLI_HOME!;
    const w = await spawnInPane(sb, session, `gemini --session-id ${ID}`, { cwd: work });
    await waitForText(sb, w.paneId, READY);
    expect(await filesUnder(join(home, '.gemini'))).toEqual([]);
    await typeLine(sb, w.paneId, 'hello spawn subagent');
    await waitForText(sb, w.paneId, 'fake reply to: hello spawn subagent');
    await typeLine(sb, w.paneId, '/quit');
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(0);
    expect(await paneText(sb, w.paneId)).toContain(`To resume this session: gemini --resume ${ID}`);
    // Beside the sessions, gemini's own `.project_root` (the directory a project hash stands for).
    const files = (await filesUnder(join(home, '.gemini', 'tmp'))).filter((f) => !f.endsWith('/.project_root'));
    expect(files).toHaveLength(2);
    const [main, child] = [files.find((f) => !f.includes(`chats/${ID}/`))!, files.find((f) => f.includes(`chats/${ID}/`))!];
    expect(main).toMatch(new RegExp(`^${basename(work)}/chats/session-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-${ID.slice(0, 8)}\\.jsonl$`));
    expect(child).toBeDefined();
    const lines = await jsonLines(join(home, '.gemini', 'tmp', main));
    expect(lines[0]).toMatchObject({ sessionId: ID, projectHash: createHash('sha256').update(work).digest('hex'), kind: 'main' });
    expect(JSON.stringify(lines[1])).toContain('<session_context>');

    const again = await spawnInPane(sb, session, `gemini --session-id ${ID}`, { cwd: work });
    expect((await waitForDeath(sb, session, again.paneId)).paneDeadStatus).toBe(42);
    expect(await paneText(sb, again.paneId)).toContain(`Session ID "${ID}" already exists`);

    const resumed = await spawnInPane(sb, session, `gemini --resume ${ID}`, { cwd: work });
    await waitForText(sb, resumed.paneId, READY);
    await typeLine(sb, resumed.paneId, 'second');
    await waitForText(sb, resumed.paneId, 'fake reply to: second');
    await typeLine(sb, resumed.paneId, '/quit');
    await waitForDeath(sb, session, resumed.paneId);
    expect((await jsonLines(join(home, '.gemini', 'tmp', main))).filter((l) => l.type === 'user')).toHaveLength(2);
  });

  it('prints a hint but writes nothing when nothing was said', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const w = await spawnInPane(sb, session, 'gemini', { cwd: sb.dir });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, '/quit');
    await waitForDeath(sb, session, w.paneId);
    expect(await paneText(sb, w.paneId)).toMatch(/To resume this session: gemini --resume [0-9a-f-]{36}/);
    expect(await filesUnder(join(sb.env.GEMINI_CLI_HOME!, '.gemini'))).toEqual([]);
  });
});
