import { describe, expect, it } from 'vitest';
import { runQueries, textQuery } from '../../src/tmux/queries.js';
import type { TmuxRun } from '../../src/tmux/runner.js';

/** A runner answering with `answer(commands)`, chomped of its last newline as the real one is. */
function fake(answer: (commands: readonly (readonly string[])[]) => string): TmuxRun & { sent: string[][][] } {
  const sent: string[][][] = [];
  return {
    sent,
    run: async () => '',
    runSequence: async (commands) => {
      sent.push(commands.map((c) => [...c]));
      return answer(commands).replace(/\n$/, '');
    },
  };
}

/** What tmux prints for the sequence: each query's text, then its marker line. */
function printed(texts: string[]) {
  return (commands: readonly (readonly string[])[]) =>
    commands.map((c, i) => (i % 2 === 0 ? texts[i / 2] ?? '' : `${c[2]}\n`)).join('');
}

describe('runQueries', () => {
  it('sends every query with a marker after it and cuts the output at the markers', async () => {
    const tmux = fake(printed(['one\n', '', 'two\nlines\n']));
    const out = await runQueries(tmux, [textQuery(['a']), textQuery(['b']), textQuery(['c'])]);
    expect(out).toEqual(['one', '', 'two\nlines']);
    expect(tmux.sent).toHaveLength(1);
    const markers = tmux.sent[0]!.filter((c) => c[0] === 'display-message').map((c) => c[2]);
    expect(markers).toHaveLength(3);
    expect(new Set(markers).size).toBe(1);
    expect(markers[0]).toMatch(/^\u241e[0-9a-f]{12}$/);
  });

  it('a fresh marker per call: text printed by an earlier call cannot pose as one', async () => {
    const first = fake(printed(['x\n']));
    await runQueries(first, [textQuery(['a'])]);
    const second = fake(printed(['x\n']));
    await runQueries(second, [textQuery(['a'])]);
    expect(first.sent[0]![1]![2]).not.toBe(second.sent[0]![1]![2]);
  });

  it('throws, naming the queries, when tmux did not answer every one', async () => {
    const tmux = fake((commands) => `half\n${commands[1]![2]}\n`);
    await expect(runQueries(tmux, [textQuery(['show-options']), textQuery(['list-panes'])])).rejects.toThrow(/answered 1 of 2 queries \(show-options, list-panes\)/);
  });
});
