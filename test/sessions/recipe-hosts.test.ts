import { describe, expect, it } from 'vitest';
import { countTasks, hostRecipeText, parseRecipe, RecipeError, serializeRecipe, type Recipe, type RecipeEntry } from '../../src/sessions/index.js';

const HOME = '/home/ann';
const FILE = '/cfg/sessions/work.json';

const withHosts: Recipe = {
  name: 'work',
  dirs: new Map([['/home/ann/local', [{ cmd: 'sleep 1', group: null, name: null }]]]),
  hosts: new Map<string, Map<string, RecipeEntry[]>>([
    ['me@gpu', new Map<string, RecipeEntry[]>([['~/train', [{ cmd: "claude --resume 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d'", group: 'ml', name: 'trainer', env: { CLAUDE_CONFIG_DIR: '~/.claude-work' } }]]])],
    // A host whose HOME is this machine's path: its absolute dir must stay absolute (it is the host's).
    ['devbox', new Map<string, RecipeEntry[]>([['/home/ann/api', [{ cmd: 'codex', group: null, name: null }]], ['/srv', [{ cmd: 'npm run dev', group: null, name: null }]]])],
  ]),
};

describe('recipes with hosts', () => {
  it('are written as version 2, hosts sorted, each host\'s dirs and homes as the host wrote them', () => {
    const text = serializeRecipe(withHosts, HOME);
    const doc = JSON.parse(text);
    expect(doc.version).toBe(2);
    expect(doc.dirs).toEqual({ '~/local': ['sleep 1'] });
    expect(Object.keys(doc.hosts)).toEqual(['devbox', 'me@gpu']);
    expect(doc.hosts.devbox).toEqual({ '/home/ann/api': ['codex'], '/srv': ['npm run dev'] });
    expect(doc.hosts['me@gpu']['~/train']).toEqual([{ cmd: "claude --resume 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d'", group: 'ml', name: 'trainer', env: { CLAUDE_CONFIG_DIR: '~/.claude-work' } }]);
  });

  it('read back to the same recipe, and count every host\'s tasks', () => {
    const back = parseRecipe(serializeRecipe(withHosts, HOME), FILE);
    expect(back.hosts).toEqual(withHosts.hosts);
    expect([...back.dirs.keys()]).toEqual(['~/local']);
    expect(countTasks(back)).toBe(4);
  });

  it('stay version 1 without hosts, so every fleetcom reads them as before', () => {
    expect(JSON.parse(serializeRecipe({ ...withHosts, hosts: new Map() }, HOME)).version).toBe(1);
    expect(parseRecipe('{"version": 1, "name": "w", "dirs": {"/a": ["x"]}}', FILE).hosts).toBeUndefined();
  });

  it("give one host's part as the version-1 file its fleetcom loads", () => {
    const text = hostRecipeText('work', withHosts.hosts!.get('me@gpu')!);
    expect(JSON.parse(text)).toEqual({ version: 1, name: 'work', dirs: JSON.parse(serializeRecipe(withHosts, HOME)).hosts['me@gpu'] });
  });

  it.each([
    ['hosts in a version-1 file', '{"version": 1, "dirs": {}, "hosts": {"gpu": {}}}', 'hosts', /a file with hosts is version 2/],
    ['version 2 without hosts', '{"version": 2, "dirs": {}}', 'hosts', /expected an object mapping hosts/],
    ['a host that ssh would read as an option', '{"version": 2, "dirs": {}, "hosts": {"-oProxyCommand=x": {}}}', 'hosts["-oProxyCommand=x"]', /not a host: it starts with "-"/],
    ['a host with a space', '{"version": 2, "dirs": {}, "hosts": {"a b": {}}}', 'hosts["a b"]', /whitespace/],
    ["a host's dirs that are not an object", '{"version": 2, "dirs": {}, "hosts": {"gpu": []}}', 'hosts.gpu', /expected an object mapping directories/],
    ["a bad entry of a host", '{"version": 2, "dirs": {}, "hosts": {"gpu": {"/w": [1]}}}', 'hosts.gpu["/w"][0]', /expected a command string/],
  ])('refuse %s, naming where', (_label, text, where, message) => {
    let error: unknown;
    try {
      parseRecipe(text, FILE);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RecipeError);
    expect((error as RecipeError).where).toBe(where);
    expect((error as RecipeError).message).toMatch(message);
  });
});
