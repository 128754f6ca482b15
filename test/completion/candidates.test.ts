import { describe, expect, it } from 'vitest';
import { candidates, formatCandidates, type Dynamic, type ProgramShape } from '../../src/completion/candidates.js';

const opt = (long: string, takesValue = false, choices: string[] | null = null, short: string | null = null) =>
  ({ long, short, description: `about ${long}`, takesValue, choices });

const program: ProgramShape = {
  options: [opt('--version', false, null, '-V'), opt('--help', false, null, '-h')],
  commands: [
    { name: 'up', description: 'start', options: [opt('--headless'), opt('--rerun-key', true), opt('--group-by', true, ['state', 'dir', 'group']), opt('--help')], args: [{ name: 'session', variadic: false }] },
    { name: 'run', description: 'add a task', options: [opt('--cwd', true), opt('--name', true)], args: [{ name: 'cmd', variadic: true }] },
    { name: 'rerun', description: 'rerun', options: [opt('--pane', true)], args: [{ name: 'task', variadic: false }] },
    { name: 'rename', description: 'rename', options: [], args: [{ name: 'task', variadic: false }, { name: 'name', variadic: false }] },
    { name: 'recover', description: 'recover', options: [], args: [{ name: 'snapshot', variadic: false }] },
    { name: 'completion', description: 'script', options: [], args: [{ name: 'shell', variadic: false }] },
  ],
};

function fakeSources() {
  const asked: Dynamic[] = [];
  const answer = (kind: Dynamic, values: string[]) => async () => {
    asked.push(kind);
    return values.map((value) => ({ value, description: `${kind} ${value}` }));
  };
  return {
    asked,
    sources: {
      task: answer('task', ['1', '2', '12']),
      session: answer('session', ['work', 'web']),
      snapshot: answer('snapshot', ['20261129-193005-4242']),
      shell: answer('shell', ['bash', 'zsh', 'fish']),
    },
  };
}

async function values(...words: string[]): Promise<{ values: string[]; asked: Dynamic[] }> {
  const { sources, asked } = fakeSources();
  return { values: (await candidates(program, words, sources)).map((c) => c.value), asked };
}

describe('candidates', () => {
  it.each([
    ['every command for an empty word', [''], ['up', 'run', 'rerun', 'rename', 'recover', 'completion']],
    ['commands by prefix', ['re'], ['rerun', 'rename', 'recover']],
    ['global options after a dash', ['--v'], ['--version']],
    ["a command's options", ['up', '--'], ['--headless', '--rerun-key', '--group-by', '--help']],
    ["an option's choices", ['up', '--group-by', 'd'], ['dir']],
    ['nothing for a free-form option value', ['up', '--rerun-key', ''], []],
    ['saved sessions for up', ['up', 'w'], ['work', 'web']],
    ['task ids for rerun, by prefix', ['rerun', '1'], ['1', '12']],
    ['task ids after an option with its value', ['rerun', '--pane', '%1', ''], ['1', '2', '12']],
    ["nothing for rename's second word", ['rename', '3', ''], []],
    ['snapshots for recover', ['recover', ''], ['20261129-193005-4242']],
    ['shells for completion', ['completion', ''], ['bash', 'zsh', 'fish']],
    ['nothing after -- (the command is the user\'s)', ['run', '--', 'cla'], []],
    ['nothing for an unknown command', ['nope', ''], []],
  ])('%s', async (_title, words, expected) => {
    expect((await values(...words)).values).toEqual(expected);
  });

  it('asks for the fleet only where a task is wanted', async () => {
    expect((await values('')).asked).toEqual([]);
    expect((await values('up', '--')).asked).toEqual([]);
    expect((await values('rerun', '')).asked).toEqual(['task']);
  });
});

describe('formatCandidates', () => {
  it('writes value TAB description a line, flattening tabs and newlines', () => {
    expect(formatCandidates([{ value: '3', description: 'npm\trun\ndev' }, { value: 'x', description: '' }])).toBe('3\tnpm run dev\nx\t\n');
  });
});
