import { describe, expect, it } from 'vitest';
import { expandHomes, homesToWrite, parseRecipe, RecipeError, serializeRecipe, type Recipe } from '../../src/sessions/index.js';

const HOME = '/home/ann';
const FILE = '/cfg/sessions/work.json';

function file(entry: unknown): string {
  return JSON.stringify({ version: 1, name: 'work', dirs: { '~/w': [entry] } });
}

function refusal(text: string): RecipeError {
  try {
    parseRecipe(text, FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(RecipeError);
    return e as RecipeError;
  }
  throw new Error('expected the recipe to be refused');
}

describe('agent homes in a recipe entry', () => {
  it('reads "env" with agent-home variables as written', () => {
    const recipe = parseRecipe(file({ cmd: 'claude', env: { CLAUDE_CONFIG_DIR: '~/.claude-work', CODEX_HOME: '/srv/codex' } }), FILE);
    expect(recipe.dirs.get('~/w')).toEqual([
      { cmd: 'claude', group: null, name: null, env: { CLAUDE_CONFIG_DIR: '~/.claude-work', CODEX_HOME: '/srv/codex' } },
    ]);
  });

  it('reads an entry without "env" (or with null) as before', () => {
    expect(parseRecipe(file({ cmd: 'claude', env: null }), FILE).dirs.get('~/w')).toEqual([{ cmd: 'claude', group: null, name: null }]);
  });

  const refused: Array<[string, unknown, string, string]> = [
    ['any other variable (a recipe must not set LD_PRELOAD)', { LD_PRELOAD: '/tmp/x.so' }, 'dirs["~/w"][0].env.LD_PRELOAD', 'only the agent homes'],
    ['PATH', { PATH: '/evil' }, 'dirs["~/w"][0].env.PATH', 'not "PATH"'],
    ['a relative directory', { CLAUDE_CONFIG_DIR: '.claude-work' }, 'dirs["~/w"][0].env.CLAUDE_CONFIG_DIR', 'absolute directory or ~/'],
    ['$HOME in a value (nothing is expanded but ~)', { CODEX_HOME: '$HOME/.codex' }, 'dirs["~/w"][0].env.CODEX_HOME', 'absolute directory'],
    ['~user', { GROK_HOME: '~bob/.grok' }, 'dirs["~/w"][0].env.GROK_HOME', 'absolute directory'],
    ['a control character', { CLAUDE_CONFIG_DIR: '/a\nb' }, 'dirs["~/w"][0].env.CLAUDE_CONFIG_DIR', 'control characters'],
    ['a number', { CLAUDE_CONFIG_DIR: 7 }, 'dirs["~/w"][0].env.CLAUDE_CONFIG_DIR', 'expected a directory'],
    ['a list', ['CLAUDE_CONFIG_DIR=/x'], 'dirs["~/w"][0].env', 'expected an object'],
  ];
  for (const [title, env, where, message] of refused) {
    it(`refuses ${title}, naming the entry and the variable`, () => {
      const error = refusal(file({ cmd: 'claude', env }));
      expect(error.where).toBe(where);
      expect(error.message).toContain(message);
    });
  }

  it('expands ~ against the loader\'s HOME', () => {
    expect(expandHomes({ CLAUDE_CONFIG_DIR: '~/.claude-work', CODEX_HOME: '/srv//codex/', GROK_HOME: '~' }, HOME)).toEqual({
      CLAUDE_CONFIG_DIR: '/home/ann/.claude-work',
      CODEX_HOME: '/srv/codex',
      GROK_HOME: '/home/ann',
    });
  });

  it('writes only homes that differ from the default a loader computes, ~ abbreviated', () => {
    expect(homesToWrite({ CLAUDE_CONFIG_DIR: '/home/ann/.claude' }, HOME)).toBeNull();
    expect(homesToWrite({ CODEX_HOME: '~/.codex' }, HOME)).toBeNull();
    expect(homesToWrite({ CLAUDE_CONFIG_DIR: '/home/ann/.claude-work', CODEX_HOME: '/home/ann/.codex' }, HOME)).toEqual({ CLAUDE_CONFIG_DIR: '~/.claude-work' });
    expect(homesToWrite({ GROK_HOME: '/srv/grok' }, HOME)).toEqual({ GROK_HOME: '/srv/grok' });
    expect(homesToWrite(undefined, HOME)).toBeNull();
  });

  it('saves an entry with a kept home in the object form, and reads it back', () => {
    const recipe: Recipe = {
      name: 'work',
      dirs: new Map([['/home/ann/w', [
        { cmd: "claude --resume 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d'", group: null, name: null, env: { CLAUDE_CONFIG_DIR: '/home/ann/.claude-work' } },
        { cmd: 'claude', group: null, name: null, env: { CLAUDE_CONFIG_DIR: '/home/ann/.claude' } },
      ]]]),
    };
    const text = serializeRecipe(recipe, HOME);
    expect(JSON.parse(text).dirs['~/w']).toEqual([
      { cmd: "claude --resume 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d'", group: null, name: null, env: { CLAUDE_CONFIG_DIR: '~/.claude-work' } },
      'claude',
    ]);
    expect(JSON.parse(text).version).toBe(1);
    expect(parseRecipe(text, FILE).dirs.get('~/w')?.[0]?.env).toEqual({ CLAUDE_CONFIG_DIR: '~/.claude-work' });
  });
});
