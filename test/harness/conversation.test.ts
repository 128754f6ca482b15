import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeSlug, grokEncodeCwd, storedConversation } from '../../src/harness/index.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const CID = '019f5453-de22-7240-b2e5-0d32692aa6d9'; // v7: 2026-07-12
const CWD = '/w/my_dir.v2';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fleetcom-conv-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function transcript(home: string, lines: object[]): string {
  const dir = join(home, 'projects', claudeSlug(CWD));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${ID}.jsonl`);
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return file;
}

describe('storedConversation', () => {
  it('claude: found when the transcript holds a typed message', () => {
    const file = transcript(root, [{ type: 'mode' }, { type: 'user', message: { role: 'user', content: 'hello' } }]);
    expect(storedConversation('claude', root, CWD, ID)).toEqual({ found: true, path: file });
  });

  it('claude: not found when the transcript is missing, naming where it was looked for', () => {
    const r = storedConversation('claude', root, CWD, ID);
    expect(r).toMatchObject({ found: false, path: join(root, 'projects', '-w-my-dir-v2', `${ID}.jsonl`) });
    if (!r.found) expect(r.why).toContain('no claude transcript');
  });

  it('claude: not found when the transcript holds only bookkeeping (a bare /exit)', () => {
    transcript(root, [{ type: 'mode' }, { type: 'permission-mode' }]);
    const r = storedConversation('claude', root, CWD, ID);
    expect(r.found).toBe(false);
    if (!r.found) expect(r.why).toContain('holds no message');
  });

  it('codex: the rollout in the date folder of its v7 time', () => {
    const dir = join(root, 'sessions', '2026', '07', '12');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `rollout-2026-07-12T03-16-50-${CID}.jsonl`);
    writeFileSync(file, '{}\n');
    expect(storedConversation('codex', root, CWD, CID)).toEqual({ found: true, path: file });
    rmSync(file);
    expect(storedConversation('codex', root, CWD, CID)).toMatchObject({ found: false, path: join(root, 'sessions') });
  });

  it('codex: a non-v7 id is looked for in every date folder', () => {
    const dir = join(root, 'sessions', '2025', '01', '02');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `rollout-2025-01-02T00-00-00-${ID}.jsonl`);
    writeFileSync(file, '{}\n');
    expect(storedConversation('codex', root, CWD, ID)).toEqual({ found: true, path: file });
  });

  it('grok: the session directory', () => {
    const dir = join(root, 'sessions', grokEncodeCwd(CWD), ID);
    expect(storedConversation('grok', root, CWD, ID).found).toBe(false);
    mkdirSync(dir, { recursive: true });
    expect(storedConversation('grok', root, CWD, ID)).toEqual({ found: true, path: dir });
  });

  it('refuses an invalid id without touching the store', () => {
    expect(storedConversation('claude', root, CWD, '../../etc/passwd')).toMatchObject({ found: false });
  });
});
