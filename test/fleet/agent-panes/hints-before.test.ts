import { describe, expect, it } from 'vitest';
import { freshHint, HINT_IDS_KEPT, hintsIn } from '../../../src/fleet/agent-panes/hints-before.js';

// An adopted shell pane's scrollback holds the hints of agents that ran in it before: the
// exit hint of the adopted run is only one beyond those.

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const hint = (id: string) => `Resume this session with:\nclaude --resume ${id}`;
const shellBefore = `$ claude\n${hint(A)}\n$ claude\n`;

describe('the hints a pane held at adoption', () => {
  it('counts each id', () => {
    expect(hintsIn('claude', `${hint(A)}\n${hint(B)}\n${hint(A)}\n`)).toEqual({ hintsBefore: { [B]: 1, [A]: 2 }, capped: false });
  });

  it('keeps the newest ids only, and says so', () => {
    const ids = Array.from({ length: HINT_IDS_KEPT + 2 }, (_, i) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`);
    const before = hintsIn('claude', ids.map(hint).join('\n'));
    expect(Object.keys(before.hintsBefore)).toEqual(ids.slice(2));
    expect(before.capped).toBe(true);
  });
});

describe('the hint of the adopted run', () => {
  const before = hintsIn('claude', shellBefore);

  it.each([
    ['no hint at its end: the earlier agent\'s is not its own', `${shellBefore}exiting\n$ `, null],
    ['a hint of a new conversation', `${shellBefore}${hint(B)}\n$ `, B],
    ['the earlier conversation hinted once more (it was resumed)', `${shellBefore}${hint(A)}\n$ `, A],
    ['the newest of several', `${shellBefore}${hint(B)}\n${hint(A)}\n$ `, A],
  ])('%s', (_label, text, id) => expect(freshHint('claude', text, before)).toBe(id));

  it('takes an id not kept as old when the kept ones were capped', () => {
    expect(freshHint('claude', hint(B), { hintsBefore: {}, capped: true })).toBeNull();
    expect(freshHint('claude', hint(B), { hintsBefore: {}, capped: false })).toBe(B);
  });

  it('scrapes each agent\'s own forms (codex)', () => {
    const id = '019f5453-de22-7240-b2e5-0d32692aa6d9';
    const text = `To continue this session, run:\n  codex resume ${id}\n`;
    expect(freshHint('codex', text, hintsIn('codex', ''))).toBe(id);
    expect(freshHint('codex', text, hintsIn('codex', text))).toBeNull();
  });
});
