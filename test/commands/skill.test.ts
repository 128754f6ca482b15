// The lead's guide (fleetcom skill) names only commands and flags that exist, so it cannot
// teach a lead something the CLI would refuse.
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/commands/program.js';
import { SKILL_TEXT } from '../../src/commands/orchestration/skill.js';

const program = buildProgram({ env: {}, cwd: '/', stdout: { write: () => true }, stderr: { write: () => true }, now: () => 0 }, () => {});

/** Every `fleetcom <command> …` the guide writes as code (an indented line, or in backticks), with its flags. */
function uses(text: string): Array<{ command: string; flags: string[] }> {
  return [...text.matchAll(/(?:^ {4}|`)fleetcom ([a-z][a-z-]*)([^`\n#]*)/gm)].map((m) => ({
    command: m[1]!,
    flags: [...(m[2] ?? '').matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((f) => f[1]!),
  }));
}

describe('fleetcom skill', () => {
  it('is a skill file: front matter with its name and when to use it', () => {
    expect(SKILL_TEXT).toMatch(/^---\nname: fleetcom\ndescription: .+\n---\n/);
  });

  it('names only commands and flags the CLI has', () => {
    const found = uses(SKILL_TEXT);
    expect(found.length).toBeGreaterThan(10);
    for (const { command, flags } of found) {
      const cmd = program.commands.find((c) => c.name() === command);
      expect(cmd, `fleetcom ${command}`).toBeDefined();
      const known = new Set([...cmd!.options.map((o) => o.long), '--host']);
      for (const flag of flags) expect(known.has(flag), `fleetcom ${command} ${flag}`).toBe(true);
    }
  });

  it('would catch a command or flag that does not exist (the check can fail)', () => {
    expect(uses('    fleetcom sendd 3 --now\n`fleetcom wait 3 --turns 2`')).toEqual([{ command: 'sendd', flags: ['--now'] }, { command: 'wait', flags: ['--turns'] }]);
  });
});
