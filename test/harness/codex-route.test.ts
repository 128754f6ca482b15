import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexProfileName, codexRouteFromText, readCodexRoute, type CodexRoute } from '../../src/harness/index.js';
import { tempDir, write } from './fixtures.js';

// Contract section 5 and amendment 8.6.

const vacant: CodexRoute = { kind: 'vacant' };
const chain = (...argv: string[]): CodexRoute => ({ kind: 'chain', argv });
const OPAQUE = 'opaque';

function routeOf(config: string | null, files: Record<string, string> = {}): CodexRoute {
  const home = tempDir();
  if (config !== null) write(path.join(home, 'config.toml'), config);
  for (const [name, text] of Object.entries(files)) write(path.join(home, name), text);
  return readCodexRoute(home);
}

describe('the codex notify route from config.toml', () => {
  it.each([
    ['no config at all', null, vacant],
    ['an empty config', '', vacant],
    ['a commented notify', '# notify = ["/x"]', vacant],
    ['notify_extra', 'notify_extra = 1', vacant],
    ['a bare notify', 'notify', vacant],
    ['a one-element array', 'notify = ["/my/thing"]', chain('/my/thing')],
    ['tabs and a comment', '\tnotify\t= ["/my/thing"] # mine', chain('/my/thing')],
    ['a trailing comma', 'notify = ["a", "b",] # mine', chain('a', 'b')],
    ['escapes', 'notify = ["a\\tb", "q\\"", "\\\\", "\\u00e9\\U0001F680"]', chain('a\tb', 'q"', '\\', 'é🚀')],
    ['a line inside a table', '[tui]\nnotify = ["/in/table"]', chain('/in/table')],
    ['CRLF line ends', 'model = "x"\r\nnotify = ["/x"]\r\n', chain('/x')],
    ['a multi-line array', 'notify = [\n"/x",\n]', OPAQUE],
    ['a literal string', "notify = ['/x']", OPAQUE],
    ['an empty array', 'notify = []', OPAQUE],
    ['an empty element', 'notify = [""]', OPAQUE],
    ['an element holding a newline', 'notify = ["a\\nb"]', OPAQUE],
    ['a plain string', 'notify = "/x"', OPAQUE],
    ['a number', 'notify = [1]', OPAQUE],
    ['a missing comma', 'notify = ["a" "b"]', OPAQUE],
    ['junk after the array', 'notify = ["a"] x', OPAQUE],
    ['two notify lines', 'notify = ["/a"]\nnotify = ["/b"]', OPAQUE],
    ['a bad escape', 'notify = ["a\\qb"]', OPAQUE],
    ['a short unicode escape', 'notify = ["\\u12"]', OPAQUE],
    ['a surrogate escape', 'notify = ["\\ud800"]', OPAQUE],
    ['an escape past U+10FFFF', 'notify = ["\\U00110000"]', OPAQUE],
    ['a NUL escape', 'notify = ["a\\u0000"]', OPAQUE],
    ['a raw control character', 'notify = ["a\u0001b"]', OPAQUE],
    ['an unterminated string', 'notify = ["/x]', OPAQUE],
    ['a lone comma', 'notify = [,]', OPAQUE],
    ['a double comma', 'notify = ["a",,]', OPAQUE],
    ['an inline table', 'notify = { cmd = "/x" }', OPAQUE],
  ] as const)('reads %s', (_label, config, expected) => {
    const route = routeOf(config);
    if (expected === OPAQUE) expect(route.kind).toBe('opaque');
    else expect(route).toEqual(expected);
  });
});

describe('the codex notify route with a profile', () => {
  it.each([
    ['the profile file names the notifier', 'profile = "team"', { 'team.config.toml': 'notify = ["/team/hook"]' }, chain('/team/hook')],
    ['the profile file wins over config.toml', 'profile = "team"\nnotify = ["/base"]', { 'team.config.toml': 'notify = ["/team"]' }, chain('/team')],
    ['a commented profile notify falls through', 'profile = "team"\nnotify = ["/base"]', { 'team.config.toml': '# notify = ["/team"]' }, chain('/base')],
    ['a missing profile file is empty', 'profile = "ghost"', {}, vacant],
    ['an opaque profile notify stops the search', 'profile = "team"\nnotify = ["/base"]', { 'team.config.toml': 'notify = []' }, OPAQUE],
    ['two notify lines in the profile are opaque', 'profile = "team"', { 'team.config.toml': 'notify = ["/a"]\nnotify = ["/b"]' }, OPAQUE],
    ['a single-quoted profile', "profile = 'team'", { 'team.config.toml': 'notify = ["/t"]' }, chain('/t')],
    ['an unquoted profile ends at a comment', 'profile=team# note', { 'team.config.toml': 'notify = ["/t"]' }, chain('/t')],
  ] as const)('%s', (_label, config, files, expected) => {
    const route = routeOf(config, files);
    if (expected === OPAQUE) expect(route.kind).toBe('opaque');
    else expect(route).toEqual(expected);
  });

  it.each([
    ['profile = "team"', 'team'],
    ["  profile\t=  'a b' # c", 'a b'],
    ['profile = team extra', 'team'],
    ['profile = "open', '"open'],
    ['profile = ""\nprofile = "second"', 'second'],
    ['profile =   # nothing\nprofile = x', 'x'],
    ['profiles = "no"', null],
    ['# profile = "no"', null],
    ['profile', null],
  ])('takes the profile of %j as %j', (config, name) => {
    expect(codexProfileName(config)).toBe(name);
  });

  it('reads the pure text the same way', () => {
    expect(codexRouteFromText('notify = ["/base"]', 'notify = ["/team"]')).toEqual(chain('/team'));
    expect(codexRouteFromText('notify = ["/base"]', '')).toEqual(chain('/base'));
    expect(codexRouteFromText('', '')).toEqual(vacant);
  });
});

describe('codex configs that cannot be read (8.6)', () => {
  it('makes the route opaque when config.toml is a directory', () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, 'config.toml'));
    expect(readCodexRoute(home)).toMatchObject({ kind: 'opaque' });
  });

  it('makes the route opaque when the profile file is a directory', () => {
    const home = tempDir();
    write(path.join(home, 'config.toml'), 'profile = "team"\nnotify = ["/base"]');
    fs.mkdirSync(path.join(home, 'team.config.toml'));
    expect(readCodexRoute(home)).toMatchObject({ kind: 'opaque' });
  });

  it('makes the route opaque, without blocking, when config.toml is a FIFO', () => {
    const home = tempDir();
    const fifo = path.join(home, 'config.toml');
    execFileSync('mkfifo', [fifo]);
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
    expect(readCodexRoute(home)).toMatchObject({ kind: 'opaque' });
  });

  it('makes the route opaque when config.toml cannot be opened (permissions)', () => {
    if (process.getuid?.() === 0) return; // root reads anything; the directory case covers 8.6
    const home = tempDir();
    const config = write(path.join(home, 'config.toml'), 'notify = ["/x"]');
    fs.chmodSync(config, 0o000);
    expect(readCodexRoute(home)).toMatchObject({ kind: 'opaque' });
  });

  it('treats a missing codex home as absent', () => {
    expect(readCodexRoute(path.join(tempDir(), 'no', 'such', 'home'))).toEqual(vacant);
  });
});
