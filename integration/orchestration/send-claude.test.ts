// send into the fake claude (2.1.x as measured: raw mode, bracketed paste, UserPromptSubmit with
// the prompt, Stop with last_assistant_message): submitted with its turn, and what claude gets
// is the text sent, as one message — multi-line, 100 KiB, CRLF — while hostile texts are
// refused before anything is typed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paneText } from '../helpers/pane.js';
import type { Sandbox } from '../helpers/sandbox.js';
import { world } from './world.js';

/** The prompts claude's UserPromptSubmit hook carried for a task, read from its events file. */
async function promptsOf(sb: Sandbox): Promise<string[]> {
  const capture = (await sb.agentStarts()).find((a) => a.agent === 'claude')?.env.FLEETCOM_CAPTURE_FILE;
  if (!capture) throw new Error('no claude started');
  let text = '';
  try {
    text = readFileSync(capture.replace(/\.json$/, '.events'), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { hook_event_name: string; prompt?: string })
    .filter((p) => p.hook_event_name === 'UserPromptSubmit').map((p) => p.prompt ?? '');
}

/** A text of about `bytes` bytes in lines of varied length, every character printable. */
function bigText(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `line ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(1 + (i % 3)).trim()} — ✓${i % 7 === 0 ? ' \t(tab)' : ''}`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n');
}

describe('send to claude', () => {
  it('is submitted once claude takes it: the turn it started, ls shows the turn, output its reply', async () => {
    const w = await world();
    const task = await w.agent('claude');
    const { code, reply } = await w.send(task.id, 'hello there');
    expect(reply).toMatchObject({ task: task.id, verdict: 'submitted', via: 'tmux paste', turn: 1, reason: null });
    expect(reply.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(code).toBe(0);
    await w.fleet.waitTask(task.id, (t) => t.turn === 1 && t.attention === 'waiting', 'turn 1 ended');
    expect((await w.fleet.cli('output', String(task.id))).stdout).toBe('fake reply to: hello there\n');
    // Without --json: the turn on stdout, the verdict in words on stderr.
    const plain = await w.fleet.cli('send', String(task.id), 'and', 'again');
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toBe('2\n');
    expect(plain.stderr).toMatch(/^task \d+: submitted \(turn 2\) in \d+ ms\n$/);
    expect(await promptsOf(w.sb)).toEqual(['hello there', 'and again']);
  });

  it('names the conversation it went into before claude has written the message to its transcript', async () => {
    const w = await world({ gated: true, env: { FAKE_CLAUDE_TRANSCRIPT_LAG_MS: '3000' } });
    const task = await w.agent('claude');
    const pin = (await w.sb.agentStarts()).find((a) => a.agent === 'claude')?.argv[1];
    const { code, reply } = await w.send(task.id, 'hello there');
    expect(reply).toMatchObject({ verdict: 'submitted', turn: 1, conversationId: pin });
    expect(code).toBe(0);
  });

  it('delivers a multi-line message and one of 100 KiB each as one message, exactly', async () => {
    const w = await world();
    const task = await w.agent('claude');
    const lines = 'first line\nsecond line, with "quotes" and $HOME and `ticks`\n\n  indented fourth line\nlast ✓';
    const file = join(w.sb.dir, 'message.txt');
    writeFileSync(file, lines);
    expect((await w.send(task.id, '--file', file)).reply.verdict).toBe('submitted');
    const big = bigText(100 * 1024);
    writeFileSync(file, big);
    const sent = await w.send(task.id, '--file', file);
    expect(sent.reply).toMatchObject({ verdict: 'submitted', turn: 2 });
    expect(await promptsOf(w.sb)).toEqual([lines, big]);
    // The composer showed a paste, never the lines as keystrokes: no third prompt came of them.
    expect(await paneText(w.sb, task.paneId)).toContain('[Pasted text #');
    await w.fleet.waitTask(task.id, (t) => t.turn === 2 && t.attention === 'waiting', 'turn 2 ended');
    const out = JSON.parse((await w.fleet.cli('output', String(task.id), '--json')).stdout) as { text: string; source: string; turn: number };
    expect(out).toMatchObject({ text: `fake reply to: ${big}`, source: 'signal', turn: 2 });
  });

  it('refuses hostile texts before typing anything, and delivers CRLF as one message of LF lines', async () => {
    const w = await world({ config: { sendMaxBytes: 4096 } });
    const task = await w.agent('claude');
    const refused = async (...args: string[]) => {
      const r = await w.fleet.cli('send', String(task.id), ...args);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      return r.stderr;
    };
    expect(await refused('before \x1b[201~ after')).toMatch(/escape character \(U\+001B\) at character 8: .*ESC\[201~/);
    expect(await refused('ring \x07 the bell')).toMatch(/control character U\+0007/);
    const nul = join(w.sb.dir, 'nul.txt');
    writeFileSync(nul, 'a\0b');
    expect(await refused('--file', nul)).toMatch(/a NUL byte at character 2/);
    expect(await refused('x'.repeat(5000))).toMatch(/5000 bytes, over the limit of 4096 \(sendMaxBytes in config.json\)/);
    expect(await refused('   ')).toMatch(/nothing to send/);
    expect(await promptsOf(w.sb)).toEqual([]);
    const crlf = join(w.sb.dir, 'crlf.txt');
    writeFileSync(crlf, 'one\r\ntwo\r\nthree\r\n');
    expect((await w.send(task.id, '--file', crlf)).reply.verdict).toBe('submitted');
    expect(await promptsOf(w.sb)).toEqual(['one\ntwo\nthree']);
  });
});
