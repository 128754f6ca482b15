// Each agent's composer read off its real screen (test/fixtures/composers/: opencode 1.18.33,
// Kilo 7.7.7, pi 1.6.0, qwen-code 0.24.4 captured by the real-client suite), empty and with a
// draft: what send needs to see before it types (an empty composer) and what it must hold for.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { harnessFor, type HarnessName } from '../../src/harness/index.js';

const screen = (file: string) => readFileSync(new URL(`../fixtures/composers/${file}.txt`, import.meta.url), 'utf8');

describe('the composer on a real client’s screen', () => {
  it.each([
    ['opencode', 'opencode-1.18.33'],
    ['kilo', 'kilo-7.7.7'],
    ['pi', 'pi-1.6.0'],
    ['qwen', 'qwen-0.24.4'],
    ['qwen', 'qwen-0.24.4-yolo'],
  ] as const)('%s (%s): empty on its idle screen, the draft once typed', (agent, file) => {
    const composer = harnessFor(agent as HarnessName).conversing.composer;
    expect(composer(screen(`${file}-empty`))).toBe('');
    expect(composer(screen(`${file}-draft`))).toBe('a draft');
  });
});
