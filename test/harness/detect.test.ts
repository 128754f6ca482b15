import { describe, expect, it } from 'vitest';
import { detect, OPAQUE_REASONS } from '../../src/harness/index.js';
import { CID, ID } from './fixtures.js';

// Contract section 2, every vector, plus adversarial input.

describe('detection of bare agent commands', () => {
  it.each([
    ['claude', 'claude'],
    ['codex', 'codex'],
    ['grok', 'grok'],
    ['/usr/local/bin/claude', 'claude'],
    ['~/bin/claude', 'claude'],
    ['./claude', 'claude'],
    ['  claude\t', 'claude'],
    ['/usr/local/bin/claude/', 'claude'],
    ['/opt/ünïcode dir/codex', null],
    ['/opt/ünïcode/codex', 'codex'],
  ])('treats %j as bare %s', (command, harness) => {
    const detection = detect(command);
    if (harness === null) expect(detection.form).toBe('opaque');
    else expect(detection).toEqual({ form: 'bare', harness, program: command.trim() });
  });
});

describe('detection of resume commands', () => {
  it.each([
    [`claude --resume ${ID}`, 'claude', 'claude', ID],
    [`claude --resume '${ID}'`, 'claude', 'claude', ID],
    [`claude\t--resume   '${ID}'`, 'claude', 'claude', ID],
    [`codex resume ${CID}`, 'codex', 'codex', CID],
    [`codex resume '${CID}'`, 'codex', 'codex', CID],
    [`/opt/bin/codex resume ${CID}`, 'codex', '/opt/bin/codex', CID],
    [`grok --resume ${ID}`, 'grok', 'grok', ID],
    [`  ~/bin/grok --resume '${ID}'  `, 'grok', '~/bin/grok', ID],
  ])('treats %j as a %s resume', (command, harness, program, targetId) => {
    expect(detect(command)).toEqual({ form: 'resume', harness, program, targetId });
  });
});

describe('opaque commands', () => {
  const resumeRule = 'a resume form must be exactly `claude --resume <id>`';
  it.each([
    [`claude --resume "${ID}"`, 'uuid'],
    [`claude --resume '${ID}`, 'uuid'],
    [`claude --resume ''${ID}''`, 'uuid'],
    [`claude --resume ${ID.toUpperCase()}`, 'uuid'],
    [`claude --resume ${ID}ff`, 'uuid'],
    ['claude --resume $ID', 'uuid'],
    [`claude --resume=${ID}`, resumeRule],
    ['claude --resume', resumeRule],
    ['claude --continue', resumeRule],
    ['claude -c', resumeRule],
    [`claude -r ${ID}`, resumeRule],
    [`claude --resume ${ID} --model opus`, resumeRule],
    ["claude 'fix the tests'", resumeRule],
    ['claude --model opus', resumeRule],
    ['claude mcp list', resumeRule],
    [`codex --resume ${ID}`, 'a resume form must be exactly `codex resume <id>`'],
    ['codex resume --last', 'uuid'],
    ["codex exec 'x'", 'a resume form must be exactly `codex resume <id>`'],
    [`grok -r ${ID}`, 'a resume form must be exactly `grok --resume <id>`'],
    [`grok --resume ${ID} --debug`, 'a resume form must be exactly `grok --resume <id>`'],
    ['FOO=bar claude', OPAQUE_REASONS.shellSyntax],
    ['$HOME/bin/claude', OPAQUE_REASONS.shellSyntax],
    ["'/bin/claude'", OPAQUE_REASONS.shellSyntax],
    ['tools/*/claude', OPAQUE_REASONS.shellSyntax],
    ['/opt/{a,b}/codex', OPAQUE_REASONS.shellSyntax],
    ['claude; ls', OPAQUE_REASONS.shellSyntax],
    ['claude\nls', OPAQUE_REASONS.shellSyntax],
    ['claude | tee log', resumeRule],
    ['sudo claude', OPAQUE_REASONS.notAgent],
    ['claudius', OPAQUE_REASONS.notAgent],
    ['', OPAQUE_REASONS.empty],
    [' \t ', OPAQUE_REASONS.empty],
  ])('keeps %j opaque (%s)', (command, reason) => {
    const detection = detect(command);
    expect(detection.form).toBe('opaque');
    if (detection.form === 'opaque') expect(detection.reason).toContain(reason);
  });
});

describe('adversarial program words and ids', () => {
  const syntax = ['|', ';', '&', '<', '>', '$', '#', '`', '(', ')', '\\', "'", '"', '=', '\n', '\r', '*', '?', '[', ']', '{', '}'];
  it.each(syntax)('refuses %j anywhere in the program word', (ch) => {
    for (const word of [`${ch}claude`, `claude${ch}`, `/opt${ch}/claude`]) {
      expect(detect(word)).toMatchObject({ form: 'opaque', reason: OPAQUE_REASONS.shellSyntax });
    }
  });

  it.each([
    ['a Cyrillic а in the name', 'clаude'],
    ['a zero-width space', 'claude\u200b'],
    ['a vertical tab', 'claude\v'],
    ['a form feed separator', 'claude\f--resume'],
    ['a non-breaking space', `claude\u00a0--resume ${ID}`],
    ['a case change', 'Claude'],
    ['a directory named claude', '/usr/bin/claude/x'],
    ['only a slash', '/'],
    ['a leading dash', '-claude'],
    ['sudo in a path', '/usr/bin/sudo'],
  ])('is not fooled by %s', (_label, command) => {
    expect(detect(command).form).toBe('opaque');
  });

  it('does not treat newline or CR as a separator between words', () => {
    expect(detect(`claude --resume\n${ID}`).form).toBe('opaque');
    expect(detect(`claude --resume ${ID}\r`).form).toBe('opaque');
    expect(detect(`claude --resume ${ID}\n`).form).toBe('opaque');
  });

  it.each([
    [`${ID}';touch /tmp/pwned;'`],
    [`'${ID}';id`],
    [`$(id)`],
    [`'${ID.slice(0, 35)}g'`],
  ])('keeps an injected resume id opaque: %j', (word) => {
    expect(detect(`claude --resume ${word}`).form).toBe('opaque');
  });

  it('handles very long input without hanging', () => {
    const started = performance.now();
    expect(detect(`claude ${'a '.repeat(200_000)}`).form).toBe('opaque');
    expect(detect(`${'/x'.repeat(100_000)}/claude`)).toMatchObject({ form: 'bare', harness: 'claude' });
    expect(detect(`claude --resume ${'f'.repeat(1_000_000)}`).form).toBe('opaque');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
