// The fake qwen in a real tmux pane: the transcript at the first message (its runtime file from
// the start), the hint only after a message, a used or non-v1-5 --session-id refused, --resume
// continuing the same file and refusing an unknown id, subagent transcripts under subagents/.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pressKeys, paneText, spawnInPane, typeLine, waitForDeath, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { filesUnder, jsonLines } from './support.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const V7 = '019f5453-de22-7240-b2e5-0d32692aa6d9';
const READY = 'Type your message';

describe('fake qwen', () => {
  it('writes its transcript at the first message, prints the hint, refuses a used id and resumes it', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const work = await sb.mkdir('w', 'my app');
    const projects = join(sb.env.QWEN_HOME!, 'projects');
    const slug = work.replace(/[^a-zA-Z0-9]/g, '-');
    const w = await spawnInPane(sb, session, `qwen --session-id ${ID}`, { cwd: work });
    await waitForText(sb, w.paneId, READY);
    expect(await filesUnder(projects)).toEqual([`${slug}/chats/${ID}.runtime.json`]);
    await typeLine(sb, w.paneId, 'hello spawn subagent');
    await waitForText(sb, w.paneId, 'fake reply to: hello spawn subagent');
    await pressKeys(sb, w.paneId, 'C-c');
    await waitForText(sb, w.paneId, 'Press Ctrl+C again to exit.');
    await pressKeys(sb, w.paneId, 'C-c');
    expect((await waitForDeath(sb, session, w.paneId)).paneDeadStatus).toBe(0);
    expect(await paneText(sb, w.paneId)).toContain(`To continue this session, run\nqwen --resume ${ID}`);
    const files = await filesUnder(projects);
    expect(files).toContain(`${slug}/chats/${ID}.jsonl`);
    expect(files.some((f) => f.startsWith(`${slug}/subagents/${ID}/agent-`))).toBe(true);
    const transcript = join(projects, slug, 'chats', `${ID}.jsonl`);
    expect((await jsonLines(transcript))[0]).toMatchObject({ sessionId: ID, type: 'user', cwd: work, message: { parts: [{ text: 'hello spawn subagent' }] } });

    const again = await spawnInPane(sb, session, `qwen --session-id ${ID}`, { cwd: work });
    expect((await waitForDeath(sb, session, again.paneId)).paneDeadStatus).toBe(1);
    expect(await paneText(sb, again.paneId)).toContain(`Session Id ${ID} already exists`);
    const v7 = await spawnInPane(sb, session, `qwen --session-id ${V7}`, { cwd: work });
    expect((await waitForDeath(sb, session, v7.paneId)).paneDeadStatus).toBe(1);

    const resumed = await spawnInPane(sb, session, `qwen --resume ${ID}`, { cwd: work });
    await waitForText(sb, resumed.paneId, READY);
    await typeLine(sb, resumed.paneId, 'second');
    await waitForText(sb, resumed.paneId, 'fake reply to: second');
    await typeLine(sb, resumed.paneId, '/quit');
    await waitForDeath(sb, session, resumed.paneId);
    expect((await jsonLines(transcript)).filter((l) => l.type === 'user')).toHaveLength(2);

    const unknown = await spawnInPane(sb, session, `qwen --resume ${V7}`, { cwd: work });
    expect((await waitForDeath(sb, session, unknown.paneId)).paneDeadStatus).toBe(1);
    expect(await paneText(sb, unknown.paneId)).toContain(`No saved session found with ID ${V7}`);
  });

  it('prints no hint and writes no transcript when nothing was said', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const w = await spawnInPane(sb, session, 'qwen', { cwd: sb.dir });
    await waitForText(sb, w.paneId, READY);
    await typeLine(sb, w.paneId, '/quit');
    await waitForDeath(sb, session, w.paneId);
    expect(await paneText(sb, w.paneId)).not.toContain('qwen --resume');
    expect((await filesUnder(join(sb.env.QWEN_HOME!, 'projects'))).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  });
});
