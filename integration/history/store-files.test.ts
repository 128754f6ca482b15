// `history` on store files written the way each client writes them (claude 2.1.197's title
// records, codex's session_index.jsonl) and on hostile ones named like transcripts: a FIFO, a
// link to /dev/zero, a 30 MB single line, a torn last line, invalid UTF-8, another user's file,
// a directory loop. Each is listed, read as far as it is sound or skipped and counted; the
// command ends promptly. And the cache: reused while a file's size and mtime stand, rebuilt
// when it is not ours.
import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';

const CWD = '/work/proj';
const SLUG = '-work-proj';
const id = (n: number) => `0000000${n}-1111-4222-8333-444444444444`;
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const user = (text: string) => ({ type: 'user', cwd: CWD, sessionId: 'x', message: { role: 'user', content: text } });

interface Row { agent: string; id: string; title: string; firstPrompt: string }

function project(sb: Sandbox): string {
  const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', SLUG);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const history = (sb: Sandbox, ...args: string[]) => runCli(['history', ...args], { env: sb.env, cwd: sb.dir, timeout: 30_000 });

describe('history on store files', () => {
  it("titles as each client does: claude's custom-title over ai-title over summary, codex's session_index", async () => {
    const sb = await useSandbox();
    const dir = project(sb);
    writeFileSync(join(dir, `${id(1)}.jsonl`), jsonl([user('fix the login bug'), { type: 'ai-title', aiTitle: 'Fix login', sessionId: id(1) }, { type: 'custom-title', customTitle: 'login work', sessionId: id(1) }, { type: 'ai-title', aiTitle: 'Later AI title', sessionId: id(1) }]));
    writeFileSync(join(dir, `${id(2)}.jsonl`), jsonl([{ type: 'summary', summary: 'Old summary', leafUuid: 'u' }, user('second prompt')]));
    const codexId = '019f5453-de22-7240-b2e5-0d32692aa6d9';
    const day = join(sb.env.CODEX_HOME!, 'sessions', '2026', '12', '01');
    mkdirSync(day, { recursive: true });
    writeFileSync(join(day, `rollout-2026-12-01T20-11-48-${codexId}.jsonl`), jsonl([
      { timestamp: 't', type: 'session_meta', payload: { id: codexId, cwd: CWD, source: 'cli', thread_source: 'user' } },
      { timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message: 'add a cache' } },
    ]));
    writeFileSync(join(sb.env.CODEX_HOME!, 'session_index.jsonl'), jsonl([{ id: codexId, thread_name: 'Cache', updated_at: 'a' }, { id: codexId, thread_name: 'Add a cache', updated_at: 'b' }]));
    const r = await history(sb, '--cwd', CWD, '--json');
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((row) => [row.agent, row.id, row.title, row.firstPrompt]).sort()).toEqual([
      ['claude', id(1), 'login work', 'fix the login bug'],
      ['claude', id(2), 'Old summary', 'second prompt'],
      ['codex', codexId, 'Add a cache', 'add a cache'],
    ]);
  });

  it('reads a second account named by config homes, with the home each row came from; a bad homes key is refused whole', async () => {
    const sb = await useSandbox();
    const work = join(sb.home, '.claude-work');
    mkdirSync(join(work, 'projects', SLUG), { recursive: true });
    writeFileSync(join(work, 'projects', SLUG, `${id(7)}.jsonl`), jsonl([user('from the work account')]));
    writeFileSync(join(project(sb), `${id(8)}.jsonl`), jsonl([user('from the default account')]));
    const config = join(sb.env.FLEETCOM_CONFIG_DIR!, 'config.json');
    mkdirSync(sb.env.FLEETCOM_CONFIG_DIR!, { recursive: true });
    writeFileSync(config, JSON.stringify({ homes: { claude: ['~/.claude-work'] } }));
    const rows = JSON.parse((await history(sb, '--cwd', CWD, '--json')).stdout) as Array<Row & { home: string }>;
    expect(rows.map((r) => [r.title, r.home]).sort()).toEqual([['from the default account', sb.env.CLAUDE_CONFIG_DIR], ['from the work account', work]]);
    writeFileSync(config, JSON.stringify({ homes: { cluade: ['~/x'] } }));
    const refused = await history(sb, '--all');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('homes');
  });

  it('skips or reads as far as sound a FIFO, a link to /dev/zero, a 30 MB line, a torn line, invalid UTF-8, a foreign file, a loop', async () => {
    const sb = await useSandbox();
    const dir = project(sb);
    execFileSync('mkfifo', [join(dir, `${id(1)}.jsonl`)]);
    symlinkSync('/dev/zero', join(dir, `${id(2)}.jsonl`));
    writeFileSync(join(dir, `${id(3)}.jsonl`), `{"type":"user","cwd":"${CWD}","message":{"content":"${'x'.repeat(30 * 1024 * 1024)}"}}`);
    writeFileSync(join(dir, `${id(4)}.jsonl`), `${jsonl([user('torn but sound')])}{"type":"assistant","mess`);
    writeFileSync(join(dir, `${id(5)}.jsonl`), Buffer.concat([Buffer.from(`{"type":"user","cwd":"${CWD}","message":{"content":"bad `), Buffer.from([0xff, 0xfe]), Buffer.from(' bytes"}}\n')]));
    const foreign = join(dir, `${id(6)}.jsonl`);
    writeFileSync(foreign, jsonl([user('not mine')]), { mode: 0o600 });
    chownSync(foreign, 65534, 65534);
    symlinkSync('..', join(dir, 'loop'));
    symlinkSync(dir, join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', 'loop-project'));
    const started = Date.now();
    const r = await history(sb, '--all', '--json');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    // Root reads another user's file; anyone else skips it (EACCES): either way nothing breaks.
    expect(rows.map((row) => row.title).filter((t) => t !== 'not mine').sort()).toEqual(['bad \ufffd\ufffd bytes', 'torn but sound']);
    expect(r.stderr).toMatch(/^3 store files skipped \(1 not a regular file, 1 a symbolic link \(never followed\), 1 no record names its directory\); --verbose lists them$/m);
    const verbose = await history(sb, '--all', '--verbose');
    expect(verbose.stderr).toContain(`skipped claude ${join(dir, `${id(1)}.jsonl`)}: not a regular file`);
    expect(verbose.stderr).toContain(`skipped claude ${join(dir, `${id(2)}.jsonl`)}: a symbolic link (never followed)`);
    expect(verbose.stderr).toContain(`skipped claude ${join(dir, `${id(3)}.jsonl`)}: no record names its directory`);
    // A search streams past the 30 MB line and finds the sound ones.
    const found = await history(sb, '--all', '--search', 'TORN', '--json');
    expect((JSON.parse(found.stdout) as Row[]).map((row) => row.id)).toEqual([id(4)]);
  });

  it('reuses cached rows while size and mtime stand, and rebuilds a cache that is not its own', async () => {
    const sb = await useSandbox();
    const file = join(project(sb), `${id(1)}.jsonl`);
    writeFileSync(file, jsonl([user('first words')]));
    // A whole second: utimes of a Date can round a sub-millisecond mtime to another millisecond.
    const second = Math.floor(Date.now() / 1000);
    utimesSync(file, second, second);
    expect((JSON.parse((await history(sb, '--all', '--json')).stdout) as Row[])[0]?.title).toBe('first words');
    const cache = join(sb.env.XDG_CACHE_HOME!, 'fleetcom', 'history-cache.json');
    expect(JSON.parse(readFileSync(cache, 'utf8'))).toMatchObject({ format: 'fleetcom-history-cache', version: 2 });
    // Same size, same mtime: the cache answers (the file is not read again).
    writeFileSync(file, jsonl([user('other words')]));
    utimesSync(file, second, second);
    expect((JSON.parse((await history(sb, '--all', '--json')).stdout) as Row[])[0]?.title).toBe('first words');
    // A cache that is not ours (another program's, torn): rebuilt from the stores, said once.
    for (const text of ['{"format":"something-else","files":{}}', '{"format":"fleetcom-history-cache","version":2,"agents":{"claude":{"/x":["f",1]}}}', '{"torn']) {
      writeFileSync(cache, text);
      const r = await history(sb, '--all', '--json');
      expect((JSON.parse(r.stdout) as Row[])[0]?.title).toBe('other words');
      expect(r.stderr).toContain(`the history cache ${cache} was rebuilt`);
      expect(JSON.parse(readFileSync(cache, 'utf8'))).toMatchObject({ format: 'fleetcom-history-cache' });
    }
  });
});
