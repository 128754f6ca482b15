import { describe, expect, it } from 'vitest';
import {
  RecipeError,
  countTasks,
  normalizeGroup,
  normalizeLabel,
  parseRecipe,
  serializeRecipe,
  type Recipe,
} from '../../src/sessions/index.js';

const HOME = '/home/ann';
const FILE = '/cfg/sessions/work.json';

function recipe(name: string, dirs: Record<string, Recipe['dirs'] extends Map<string, infer E> ? E : never>): Recipe {
  return { name, dirs: new Map(Object.entries(dirs)) };
}

/** The RecipeError `parseRecipe` throws for `text`. */
function refusal(text: string, file = FILE): RecipeError {
  try {
    parseRecipe(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(RecipeError);
    return e as RecipeError;
  }
  throw new Error('expected parseRecipe to refuse the file');
}

describe('serializeRecipe', () => {
  it('writes the versioned form: 2-space indent, sorted dirs, ~ for HOME, strings or {cmd, group, name}', () => {
    const r = recipe('work', {
      '/srv/api': ['npm run dev'].map((cmd) => ({ cmd, group: null, name: null })),
      '/home/ann': [{ cmd: "claude --resume 'x'", group: 'agents', name: null }],
      '/home/ann/code/web': [
        { cmd: 'codex', group: null, name: 'reviewer' },
        { cmd: 'make watch', group: null, name: null },
      ],
    });
    expect(serializeRecipe(r, HOME)).toBe(
      [
        '{',
        '  "version": 1,',
        '  "name": "work",',
        '  "dirs": {',
        '    "/srv/api": [',
        '      "npm run dev"',
        '    ],',
        '    "~": [',
        '      {',
        '        "cmd": "claude --resume \'x\'",',
        '        "group": "agents",',
        '        "name": null',
        '      }',
        '    ],',
        '    "~/code/web": [',
        '      {',
        '        "cmd": "codex",',
        '        "group": null,',
        '        "name": "reviewer"',
        '      },',
        '      "make watch"',
        '    ]',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('marks only a closed recovery snapshot with "closed": true', () => {
    const open = recipe('autosaved 2026-11-29 19:30', {});
    expect(serializeRecipe(open, HOME)).not.toContain('closed');
    expect(JSON.parse(serializeRecipe({ ...open, closed: true }, HOME))).toEqual({
      version: 1,
      name: 'autosaved 2026-11-29 19:30',
      closed: true,
      dirs: {},
    });
  });

  it('merges a directory given both absolute and with ~', () => {
    const r = recipe('m', {
      '/home/ann/x': [{ cmd: 'a', group: null, name: null }],
      '~/x': [{ cmd: 'b', group: null, name: null }],
    });
    expect(JSON.parse(serializeRecipe(r, HOME)).dirs).toEqual({ '~/x': ['a', 'b'] });
  });

  it('writes an Unassigned group as no group', () => {
    const r = recipe('g', { '/w': [{ cmd: 'a', group: 'Unassigned', name: null }] });
    expect(JSON.parse(serializeRecipe(r, HOME)).dirs).toEqual({ '/w': ['a'] });
  });
});

describe('round trips', () => {
  const original = recipe('round trip', {
    '/srv/api': [{ cmd: 'npm run dev', group: null, name: null }],
    '/home/ann/code': [
      { cmd: "claude --resume '0b9f4a8e-6a0d-4c5e-9d3f-2b7f1e0c9a11'", group: 'agents', name: 'lead' },
      { cmd: "echo 'a;b' \"q\"", group: null, name: 'quoted' },
    ],
    '/weird/__proto__': [{ cmd: 'x', group: 'g', name: null }],
  });

  it('reads back what it wrote (dirs as written, ~ kept for the loader to expand)', () => {
    const back = parseRecipe(serializeRecipe(original, HOME), FILE);
    expect(back.name).toBe('round trip');
    expect(back.closed).toBeUndefined();
    expect([...back.dirs.keys()]).toEqual(['/srv/api', '/weird/__proto__', '~/code']);
    expect(back.dirs.get('~/code')).toEqual(original.dirs.get('/home/ann/code'));
    expect(back.dirs.get('/weird/__proto__')).toEqual([{ cmd: 'x', group: 'g', name: null }]);
    expect(serializeRecipe(back, HOME)).toBe(serializeRecipe(original, HOME));
  });

  it('reads the flat legacy form, named after its file, and writes it versioned', () => {
    const legacy = JSON.stringify({
      '/srv/api': ['npm run dev', { cmd: 'claude', name: 'lead' }],
      '~/code': [{ cmd: 'codex', group: 'agents' }],
    });
    const r = parseRecipe(legacy, '/somewhere/old fleet.json');
    expect(r.name).toBe('old fleet');
    expect(Object.fromEntries(r.dirs)).toEqual({
      '/srv/api': [
        { cmd: 'npm run dev', group: null, name: null },
        { cmd: 'claude', group: null, name: 'lead' },
      ],
      '~/code': [{ cmd: 'codex', group: 'agents', name: null }],
    });
    const again = parseRecipe(serializeRecipe(r, HOME), '/x.json');
    expect(again).toEqual(r);
  });

  it('reads a closed snapshot back as closed', () => {
    const text = serializeRecipe({ ...original, closed: true }, HOME);
    expect(parseRecipe(text, FILE).closed).toBe(true);
  });

  it('accepts entry objects with the keys omitted or null, and a UTF-8 BOM', () => {
    const text = '\uFEFF{"version": 1, "name": "n", "dirs": {"/w": [{"cmd": "a"}, {"cmd": "b", "group": null, "name": null}]}}';
    expect(parseRecipe(text, FILE).dirs.get('/w')).toEqual([
      { cmd: 'a', group: null, name: null },
      { cmd: 'b', group: null, name: null },
    ]);
  });

  it('names a versioned file without a name after the file', () => {
    expect(parseRecipe('{"version": 1, "dirs": {}}', '/s/nameless.json').name).toBe('nameless');
  });

  it('counts tasks across directories', () => {
    expect(countTasks(original)).toBe(4);
  });
});

describe('normalisation on load', () => {
  it.each([
    ['  padded  ', 'padded'],
    ['bell\u0007 and\ttab', 'bell andtab'],
    ['\u0000\u001b[31mred', '[31mred'],
    ['', null],
    ['  \t ', null],
    ['x'.repeat(70), 'x'.repeat(64)],
    ['🚀'.repeat(70), '🚀'.repeat(64)],
    [`${'y'.repeat(63)}  z`, 'y'.repeat(63)],
  ])('name %j becomes %j', (raw, clean) => {
    expect(normalizeLabel(raw)).toBe(clean);
    const r = parseRecipe(JSON.stringify({ '/w': [{ cmd: 'c', name: raw }] }), FILE);
    expect(r.dirs.get('/w')?.[0]?.name).toBe(clean);
  });

  it.each([
    ['Unassigned', null],
    [' Unassigned ', null],
    ['', null],
    ['backend', 'backend'],
    ['\u0007ops\u0007', 'ops'],
    ['unassigned', 'unassigned'],
  ])('group %j becomes %j', (raw, clean) => {
    expect(normalizeGroup(raw)).toBe(clean);
    const r = parseRecipe(JSON.stringify({ version: 1, name: 'n', dirs: { '/w': [{ cmd: 'c', group: raw }] } }), FILE);
    expect(r.dirs.get('/w')?.[0]?.group).toBe(clean);
  });

  it('removes control characters from the session name and trims it', () => {
    expect(parseRecipe('{"version": 1, "name": " a\\u0007b ", "dirs": {}}', FILE).name).toBe('ab');
  });

  it('keeps commands verbatim', () => {
    const cmd = '  echo "\\t"  ';
    expect(parseRecipe(JSON.stringify({ '/w': [cmd] }), FILE).dirs.get('/w')?.[0]?.cmd).toBe(cmd);
  });
});

describe('malformed files are refused naming the file and where', () => {
  it.each([
    ['{"/w": ["a",]}', 'line 1, column 13', "unexpected character \"]\""],
    ['{\n  "version": 1,\n  "dirs": {\n    "/w": [x]\n  }\n}', 'line 4, column 12', 'unexpected character "x"'],
    ['{"a": 1,}', 'line 1, column 9', 'expected a double-quoted property name'],
    ['{"a": [1 2]}', 'line 1, column 10', "expected ',' or ']'"],
    ['{"a": ["x"]', 'line 1, column 12', 'unexpected end of file'],
    ['', 'line 1, column 1', 'unexpected end of file'],
    ['{"a": ["tab\there"]}', 'line 1, column 12', 'control character inside a string'],
    ['{"a": ["\\q"]}', 'line 1, column 10', 'invalid escape'],
    ['{} {}', 'line 1, column 4', 'unexpected content after the JSON value'],
    ['{\r\n"ä": [01]}', 'line 2, column 8', "expected ',' or ']'"],
  ])('bad JSON %j at %s', (text, where, problem) => {
    const e = refusal(text);
    expect(e.where).toBe(where);
    expect(e.message).toContain(FILE);
    expect(e.message).toContain(`${where}: invalid JSON: ${problem}`);
    expect(e.exitCode).toBe(1);
  });

  it.each([
    ['{"version": 1, "name": "n", "dirs": {"/w": ["a", "b", {"cmd": 3}]}}', 'dirs["/w"][2].cmd', 'expected a string'],
    ['{"version": 1, "name": "n", "dirs": {"/w": [{"group": "g"}]}}', 'dirs["/w"][0].cmd', 'missing: every entry needs a command'],
    ['{"version": 1, "name": "n", "dirs": {"/w": [{"cmd": "a", "name": 7}]}}', 'dirs["/w"][0].name', 'expected a string or null'],
    ['{"version": 1, "name": "n", "dirs": {"/w": [{"cmd": "a", "group": []}]}}', 'dirs["/w"][0].group', 'expected a string or null'],
    ['{"version": 1, "name": "n", "dirs": {"/w": [{"cmd": "  "}]}}', 'dirs["/w"][0].cmd', 'expected a non-empty command'],
    ['{"version": 1, "name": "n", "dirs": {"/w": [""]}}', 'dirs["/w"][0]', 'expected a non-empty command'],
    ['{"version": 1, "name": "n", "dirs": {"/w": [42]}}', 'dirs["/w"][0]', 'expected a command string or an object with "cmd"'],
    ['{"version": 1, "name": "n", "dirs": {"/w": [["a"]]}}', 'dirs["/w"][0]', 'expected a command string or an object with "cmd"'],
    ['{"version": 1, "name": "n", "dirs": {"/w": "a"}}', 'dirs["/w"]', 'expected a list of commands'],
    ['{"version": 1, "name": "n", "dirs": {"": ["a"]}}', 'dirs[""]', 'expected a directory, not an empty name'],
    ['{"version": 1, "name": "n", "dirs": []}', 'dirs', 'expected an object mapping directories to lists of commands'],
    ['{"version": 1, "name": "n"}', 'dirs', 'expected an object mapping directories to lists of commands'],
    ['{"version": 1, "name": 5, "dirs": {}}', 'name', 'expected a string'],
    ['{"version": 1, "name": "n", "closed": "yes", "dirs": {}}', 'closed', 'expected true or false'],
    ['{"version": 0, "dirs": {}}', 'version', 'unknown version 0; this fleetcom reads versions 1 and 2'],
    ['{"/w": ["a", {"cmd": null}]}', '["/w"][1].cmd', 'expected a string'],
    ['{"/w": {"cmd": "a"}}', '["/w"]', 'expected a list of commands'],
    ['{"version": "1", "dirs": {}}', '["version"]', 'expected a list of commands'],
  ])('wrong shape %j at %s', (text, where, problem) => {
    const e = refusal(text);
    expect(e.where).toBe(where);
    expect(e.message).toBe(`${FILE}: ${where}: ${problem}`);
  });

  it.each(['[]', '"text"', 'null', '3'])('refuses %j at the top level', (text) => {
    expect(refusal(text).message).toBe(`${FILE}: expected a JSON object at the top level`);
  });

  it('refuses a newer version naming both versions, whatever else the file holds', () => {
    const e = refusal('{"version": 3, "sessions": [{"dir": "/w"}]}');
    expect(e.message).toBe(`${FILE}: written by a newer fleetcom (version 3); this one reads versions 1 and 2`);
  });

  it('reports the first problem in file order', () => {
    const e = refusal('{"version": 1, "name": "n", "dirs": {"/a": ["ok", 1], "/b": [2]}}');
    expect(e.where).toBe('dirs["/a"][1]');
  });
});
