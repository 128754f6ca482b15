import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scrapeExit, type HarnessName } from '../../src/harness/index.js';
import { CID, ID, OTHER } from './fixtures.js';

// Channel 1 (contract section 6, 8.4) on the vectors and on the real clients' exit texts.

function exitText(name: string): string {
  return fs.readFileSync(new URL(`../fixtures/exit-texts/${name}`, import.meta.url), 'utf8');
}

describe('exit hints in the real clients’ exit texts', () => {
  it.each([
    ['claude', 'claude-2.1.197.txt', '989c3f41-bee8-4923-8670-0c9ccbfc7e50'],
    ['codex', 'codex-0.144.1.txt', '019f5453-de22-7240-b2e5-0d32692aa6d9'],
    ['codex', 'codex-0.171.0.txt', '01a228b2-d6df-7333-a994-8947174cb9d1'],
    ['codex', 'codex-0.171.0-interrupted.txt', '01a228b2-d6df-7333-a994-8947174cb9d1'],
    ['codex', 'codex-0.171.0-daemon.txt', '01a228b2-d6df-7333-a994-8947174cb9d1'],
    ['codex', 'codex-0.171.0-no-message.txt', null],
    ['grok', 'grok-0.2.101.txt', '17ac97af-8cfc-46a7-9599-8cea45a687a6'],
  ] as const)('reads the %s hint of %s as %s', (harness, file, id) => {
    expect(scrapeExit(harness, exitText(file))).toBe(id);
  });

  it('never counts codex’s `Session ID:` line, even after a real hint', () => {
    const text = `${exitText('codex-0.171.0.txt')}\n${exitText('codex-0.171.0-no-message.txt')}`;
    expect(scrapeExit('codex', text)).toBe('01a228b2-d6df-7333-a994-8947174cb9d1');
  });

  it('reads the hint of an older run when the newer run printed none', () => {
    const text = `${exitText('claude-2.1.197.txt')}\n$ claude\n? for shortcuts\n`;
    expect(scrapeExit('claude', text)).toBe('989c3f41-bee8-4923-8670-0c9ccbfc7e50');
  });

  it('does not read one agent’s hint as another’s', () => {
    expect(scrapeExit('codex', exitText('claude-2.1.197.txt'))).toBeNull();
    expect(scrapeExit('grok', exitText('claude-2.1.197.txt'))).toBeNull();
    expect(scrapeExit('claude', exitText('grok-0.2.101.txt'))).toBeNull();
  });
});

describe('exit hint rules', () => {
  it.each([
    ['claude', `claude --resume ${ID}`, ID],
    ['claude', `Resume this session with:\nclaude --resume ${ID}\n`, ID],
    ['claude', `claude --resume ${OTHER}\nclaude --resume ${ID}`, ID],
    ['claude', `claude --resume ${ID} and claude --resume ${OTHER}`, OTHER],
    ['claude', `claude --resume ${ID}\nclaude --resume ${OTHER}x`, ID],
    ['claude', `claude --resume ${ID}.`, ID],
    ['claude', `claude --resume ${ID})`, ID],
    ['claude', `claude --resume ${ID}'`, ID],
    ['claude', `claude --resume ${ID}   `, ID],
    ['claude', `claude --resume ${ID}a`, null],
    ['claude', `claude --resume ${ID}0`, null],
    ['claude', `claude --resume ${ID}-`, null],
    ['claude', `claude --resume ${ID}_`, null],
    ['claude', `claude --resume ${ID}é`, null],
    ['claude', `claude --resume ${ID.toUpperCase()}`, null],
    ['claude', `claude --resume '${ID}'`, null],
    ['claude', `claude  --resume ${ID}`, null],
    ['claude', `claude --resume\n${ID}`, null],
    ['claude', `claude --resume ${ID.slice(0, 35)}`, null],
    ['claude', '', null],
    ['claude', `claude --settings /ns/claude-settings.json --resume ${ID}`, ID],
    ['claude', `claude --model opus --resume ${ID}`, ID],
    ['claude', `  claude --resume ${ID} --model opus`, ID],
    ['claude', `claude --add-dir /tmp --permission-mode plan --model opus --settings /p/s.json --resume ${ID}`, ID],
    ['claude', `/usr/local/bin/claude --model opus --resume ${ID}`, ID],
    ['claude', `$ claude --model opus --resume ${ID}.`, ID],
    ['claude', `claude --model opus --resume ${ID}x`, null],
    ['claude', `claude --model opus; other --resume ${ID}`, null],
    ['claude', `claude --model opus | other --resume ${ID}`, null],
    ['claude', `claude --model opus && other --resume ${ID}`, null],
    ['claude', `claude --model \`id\` --resume ${ID}`, null],
    ['claude', `myclaude --model opus --resume ${ID}`, null],
    ['claude', `claude --model opus\n--resume ${ID}`, null],
    ['claude', `claude --resume ${OTHER}\nclaude --model opus --resume ${ID}`, ID],
    ['claude', `claude --model opus --resume ${OTHER} then claude --resume ${ID}`, ID],
    ['claude', `claude --resume ${OTHER} then claude --model opus --resume ${ID}`, ID],
    ['grok', `grok -r ${ID}`, ID],
    ['grok', `grok --resume ${ID}`, ID],
    ['grok', `grok -r ${ID}\ngrok --resume ${OTHER}`, OTHER],
    ['grok', `grok --resume ${OTHER} then grok -r ${ID}`, ID],
    ['grok', `grok -r ${ID} then grok --resume ${OTHER}`, OTHER],
    ['codex', `codex resume ${CID}`, CID],
    ['codex', `To continue this session, run codex resume, then select docs (${CID})`, CID],
    ['codex', `To continue this session, run codex resume, then select docs (${CID}`, null],
    ['codex', `then select docs (${CID})`, null],
    ['codex', `codex resume, then pick docs (${CID})`, null],
    ['codex', `(${CID}) codex resume ${OTHER} then select`, CID],
    ['codex', `codex resume, then select docs (${CID}) or codex resume ${OTHER}`, CID],
    ['codex', `codex resume, then select docs (${CID})\ncodex resume ${OTHER}`, OTHER],
    ['codex', `Session ID: ${CID}`, null],
    ['codex', `codex resume ${CID.toUpperCase()}`, null],
  ] as const)('for %s reads %j as %s', (harness, text, id) => {
    expect(scrapeExit(harness as HarnessName, text)).toBe(id);
  });

  it('reads hints through colour codes and carriage returns', () => {
    expect(scrapeExit('claude', `Resume this session with:\r\n\x1b[2mclaude --resume ${ID}\x1b[22m\r\n`)).toBe(ID);
    expect(scrapeExit('claude', `\x1b]0;title\x07claude --resume \x1b[1m${ID}\x1b[0m`)).toBe(ID);
    expect(scrapeExit('grok', `\x1b(B  grok --resume ${ID}\x1b[m`)).toBe(ID);
  });

  it.each([
    ['shell syntax after the id', `claude --resume ${ID};rm -rf ~`, ID],
    ['an injected quote inside the id', `claude --resume ${ID.slice(0, 20)}'$(id)'`, null],
    ['unicode look-alike dashes', `claude --resume ${ID.replaceAll('-', '\u2011')}`, null],
    ['fullwidth characters', `claude --resume ${ID.replace('c', 'ｃ')}`, null],
    ['a zero-width space inside', `claude --resume ${ID.slice(0, 10)}\u200b${ID.slice(10)}`, null],
  ])('handles %s', (_label, text, id) => {
    expect(scrapeExit('claude', text)).toBe(id);
  });

  // Speed is not asserted here (a loaded 2-core CI machine took 3.2 s once): a pathological
  // scan would still exceed the test timeout by far.
  it('finds the last hint in very long text full of near misses', () => {
    const noise = `${'x'.repeat(200)} claude --resume ${'f'.repeat(40)}\n`.repeat(20_000);
    const text = `claude --resume ${OTHER}\n${noise}claude --model opus --resume ${ID}\n${noise}`;
    expect(scrapeExit('claude', text)).toBe(ID);
  });
});
